package mybb

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"forumgm/forum"
)

// sentCopy turns the recipient's captured read page (pmid 1) into the sender's copy (pmid 2): the
// same template with the message's own pmid.
func sentCopy(page []byte) []byte {
	return []byte(strings.NewReplacer("pmid=1", "pmid=2", `name="pmid" value="1"`, `name="pmid" value="2"`).Replace(string(page)))
}

var (
	reQuickReplyForm = regexp.MustCompile(`(?s)<form action="private.php" method="post" name="input">.*?</form>`)
	rePMButtons      = regexp.MustCompile(`(?s)<div class="postbit_buttons post_management_buttons float_right">.*?</div>`)
)

// sentCopyBare is a sender's copy on a board that shows no quick reply and no buttons: nothing
// on the page names the pmid.
func sentCopyBare(page []byte) []byte {
	s := reQuickReplyForm.ReplaceAllString(string(sentCopy(page)), "")
	return []byte(rePMButtons.ReplaceAllString(s, ""))
}

// Sent reads the Sent Items folder (private.php?fid=2, captured 35-pm-sent-folder) and each
// message in full; a second call with the cursor reads only the listing; the listing and the
// pages are read once per message even when called again from an empty cursor.
func TestSentFolder(t *testing.T) {
	for name, build := range map[string]func([]byte) []byte{"captured": sentCopy, "no pmid on the page": sentCopyBare} {
		t.Run(name, func(t *testing.T) {
			fk := newFake(t)
			fk.sentPage = build
			fm := fk.forum(t, nil)
			sent, cur, err := fm.Sent(ctx, forum.Cursor{})
			if err != nil {
				t.Fatal(err)
			}
			if len(sent) != 1 || cur.PostID != "2" {
				t.Fatalf("%d sent %+v", len(sent), cur)
			}
			pm := sent[0]
			if pm.ID != "2" || pm.Author != "gm-bot" || pm.AuthorID != "5" || pm.Subject != "Партия 1: ваш 3-й ход" ||
				!strings.Contains(pm.Text, "Текущая позиция:") || len(pm.Code) != 1 ||
				!pm.Time.Equal(time.Date(2026, 11, 30, 3, 22, 0, 0, time.UTC)) ||
				!strings.HasSuffix(pm.Permalink, "private.php?action=read&pmid=2") {
				t.Errorf("%+v", pm)
			}
			reqs := strings.Join(fk.requests, "\n")
			for _, want := range []string{"GET /private.php?fid=2", "GET /private.php?action=read&pmid=2"} {
				if !strings.Contains(reqs, want) {
					t.Errorf("no %q in\n%s", want, reqs)
				}
			}

			before := fk.count()
			again, cur2, err := fm.Sent(ctx, cur)
			if err != nil || len(again) != 0 || cur2 != cur || fk.count()-before != 1 {
				t.Errorf("after the cursor: %d %+v %v, %d requests", len(again), cur2, err, fk.count()-before)
			}
			before = fk.count()
			again, _, err = fm.Sent(ctx, forum.Cursor{})
			if err != nil || len(again) != 1 || again[0].Text != pm.Text || fk.count()-before != 1 {
				t.Errorf("from scratch again: %d %v, %d requests (want the listing only)", len(again), err, fk.count()-before)
			}
		})
	}
}

// A session lost before Sent: the folder answers the no-permission page, the Forum logs in again.
func TestSentLoggedOut(t *testing.T) {
	fk := newFake(t)
	fk.sentPage = sentCopy
	fm := fk.forum(t, nil)
	if err := fm.Login(ctx); err != nil {
		t.Fatal(err)
	}
	fk.expire()
	sent, _, err := fm.Sent(ctx, forum.Cursor{})
	if err != nil || len(sent) != 1 || len(fk.logins) != 2 {
		t.Fatalf("%d sent, %v, %d logins", len(sent), err, len(fk.logins))
	}
}

// MyBB's refusals of a PM's recipient are forum.ErrNotFound for SendPM (the generic classifier
// leaves them as a rejected form).
func TestNoRecipientMessages(t *testing.T) {
	for _, msg := range []string{
		"One or more of the recipients you entered are not registered users: никто",
		"You did not enter any recipients for this message. You must enter at least one recipient in the 'To' field.",
		// The Russian pack (github.com/kmitrakov/MyBB-Russian-Language-Pack, MyBB 1.8.39, commit
		// d4c50deec4121e2d1327a07e58aadfd498d19329, inc/languages/russian/datahandler_pm.lang.php):
		// pmdata_invalid_recipients, pmdata_no_recipients.
		"Один или несколько указанных получателей не являются зарегистрированными именами пользователей. Неверные получатели: никто",
		"Вы не указали получателей для этого сообщения. Вы должны ввести хотя бы одно имя пользователя в поле 'кому'.",
		// github.com/XTRO123/mybb_lang_ru (MyBB 1.8.8, commit 2a0203e89517e124ee936cb32b4d25914cb5e23a),
		// the same keys.
		"Один или несколько получателей, которые вы указали, не являются зарегистрированными участниками. Недействительные получатели: никто",
		"Вы не ввели никаких получателей, чтобы отправить это сообщение. Вы должны ввести хотя бы одно имя пользователя в поле 'Кому' .",
		// github.com/ferm32/mybb-rus (MyBB 1.6, commit 7420e29696a7fa72a2930e7a6c987eed18fd6622).
		"Один или более из указанных Вами получателей не являются зарегестрированными пользователями. Недопустимые получатели: никто",
		"Вы не ввели ни одного получателя сообщения. Вам необходимо указать как минимум одно имя пользователя в поле 'Кому'.",
	} {
		if !reNoRecipient.MatchString(msg) {
			t.Errorf("%q not recognised", msg)
		}
	}
	if reNoRecipient.MatchString("You are trying to send a message too quickly after sending a previous message. Please wait 61 more seconds.") {
		t.Error("flood taken for a missing recipient")
	}
}

// A recipient who cannot receive a PM (full quota, PMs turned off) is forum.ErrRecipient for
// SendPM: the daemon gives that message up and goes on.
func TestCannotReceiveMessages(t *testing.T) {
	for _, msg := range []string{
		"You cannot send a private message to Джелу because he/she has reached their private messaging quota. They cannot be sent any messages until their messages have been cleared out.",
		"The user Джелу has disabled private messages. You cannot send private messages to this user.",
		// The Russian pack (github.com/kmitrakov/MyBB-Russian-Language-Pack, MyBB 1.8.39, commit
		// d4c50deec4121e2d1327a07e58aadfd498d19329, inc/languages/russian/): datahandler_pm.lang.php
		// pmdata_recipient_reached_quota, _pms_disabled, _is_ignoring, _has_buddy_only;
		// private.lang.php error_pmrecipientreachedquota, error_recipientpmturnedoff.
		"Джелу достиг лимита личных сообщений, поэтому ваше сообщение не может быть отправлено.",
		"Джелу отключил личные сообщения. Вы не можете отправлять личные сообщения этому пользователю.",
		"Вы не можете отправлять сообщения Джелу, потому что находитесь в их списке игнорирования.",
		"Вы не можете отправлять сообщения Джелу, потому что вас нет в их списке друзей.",
		"Вы не можете отправить личное сообщение Джелу, так как он(а) достиг(ла) своего лимита личных сообщений. Ему/ей нельзя отправлять сообщения, пока его/её сообщения не будут очищены.",
		"Джелу выбрал(а) не получать личные сообщения или ему/ей не разрешено это делать. Поэтому вы не можете отправить ваше личное сообщение этому пользователю.",
		// github.com/XTRO123/mybb_lang_ru (MyBB 1.8.8, commit 2a0203e89517e124ee936cb32b4d25914cb5e23a),
		// the same keys (its typos are the pack's).
		"Вы не можете отправлять сообщения Джелу, потому что они у вас в списке список игнорируемых.",
		"Вы не можете отправлять сообщения Джелу, потому что вы не внесли их в спискок друзей.",
		"Джелу отключил получение личных сообщений. Вы не можете отправлять личные сообщения этому пользователю.",
		"Джелу достиг лимита квоты личных сообщений, поэтому ваше сообщение не может быть отправлено.",
		"Вы не можете отправить личное сообщение для Джелу, так как он / она достигли своей личной квоты обмена сообщениями. им нельзя отправлять любые сообщения, пока их ящик сообщений не будет очищен.",
		"Джелу решил не получать личные сообщения или ему не позволено сделать это. Поэтому вы не можете отправить личное сообщение этому пользователю.",
		// github.com/ferm32/mybb-rus (MyBB 1.6, commit 7420e29696a7fa72a2930e7a6c987eed18fd6622).
		"Джелу достиг предела количества личных сообщений, поэтому Ваше сообщение не может быть отосланно.",
		"Джелу отключил личные сообщения. Вы не можете посылать личные сообщения этому пользователю.",
		"Ваше сообщение для Джелу не может быть отослано, потому что Вы включены в его чёрный список.",
		"Вы не можете отправить сообщения для Джелу, потому что Вы не входите в его список друзей.",
		"Вы не можете отправить личное сообщение to Джелу, поскольку у него/неё превышен лимит личных сообщений.",
		"Джелу установил(а) запрет на получение личных сообщений, или ,возможно, ему(ей) запрещено делать это. Поэтому Вы не можете отправить личное сообщение этому пользователю.",
	} {
		if !reCannotReceive.MatchString(msg) || reNoRecipient.MatchString(msg) {
			t.Errorf("%q not recognised as a recipient who cannot receive", msg)
		}
	}
	if reCannotReceive.MatchString("You are trying to send a message too quickly after sending a previous message. Please wait 61 more seconds.") ||
		reCannotReceive.MatchString("One or more of the recipients you entered are not registered users: никто") ||
		reCannotReceive.MatchString("Вы пытаетесь отправить сообщение слишком быстро после отправки предыдущего сообщения. Пожалуйста, подождите еще 61 секунд(ы).") ||
		reCannotReceive.MatchString("Один или несколько указанных получателей не являются зарегистрированными именами пользователей. Неверные получатели: никто") {
		t.Error("another refusal taken for a recipient who cannot receive")
	}
}
