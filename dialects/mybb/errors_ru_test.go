package mybb

import (
	"errors"
	"testing"
	"time"

	"forumgm/forum"
)

// The Russian packs' refusals, {1} filled in as MyBB does, each typed as its English original is:
//   - "1.8.39": github.com/kmitrakov/MyBB-Russian-Language-Pack (MyBB 1.8.39, release 1.0.3,
//     commit d4c50deec4121e2d1327a07e58aadfd498d19329),
//     application/1.8.39/russian/inc/languages/russian/<file>.lang.php;
//   - "1.8.8": github.com/XTRO123/mybb_lang_ru (langinfo version 1808, commit
//     2a0203e89517e124ee936cb32b4d25914cb5e23a), inc/languages/russian/<file>.lang.php;
//   - "1.6": github.com/ferm32/mybb-rus (MyBB 1.6 keys, commit
//     7420e29696a7fa72a2930e7a6c987eed18fd6622), inc/languages/russian/<file>.lang.php.
//
// Their typos ("компбинацию", "пождать") are the packs'.
func TestClassifyRussianPack(t *testing.T) {
	for _, c := range []struct {
		src, msg string
		want     error
		wait     time.Duration // flood
		limit    int           // too long
		member   bool
	}{
		{src: "1.8.39 datahandler_post postdata_post_flooding",
			msg: "Вы пытаетесь отправить сообщение слишком быстро после отправки предыдущего сообщения. Пожалуйста, подождите еще 45 секунд(ы).", wait: 45 * time.Second},
		{src: "1.8.39 datahandler_post postdata_post_flooding_one_second",
			msg: "Вы пытаетесь отправить сообщение слишком быстро после отправки предыдущего сообщения. Пожалуйста, подождите еще 1 секунду.", wait: time.Second},
		{src: "1.8.39 datahandler_pm pmdata_pm_flooding",
			msg: "Вы пытаетесь отправить сообщение слишком быстро после отправки предыдущего сообщения. Пожалуйста, подождите еще 62 секунд(ы).", wait: 62 * time.Second},
		{src: "1.8.39 datahandler_post postdata_message_too_long",
			msg: "Сообщение слишком длинное. Пожалуйста, введите сообщение короче 65535 символов (сейчас 70000).", want: forum.ErrTooLong, limit: 65535},
		{src: "1.8.39 datahandler_pm pmdata_message_too_long",
			msg: "Сообщение слишком длинное. Пожалуйста, введите сообщение короче 65535 символов (сейчас 65600).", want: forum.ErrTooLong, limit: 65535},
		{src: "1.8.39 datahandler_post postdata_message_too_short",
			msg: "Сообщение слишком короткое. Пожалуйста, введите сообщение длиннее 5 символов.", want: forum.ErrTooShort},
		{src: "1.8.39 datahandler_post postdata_missing_message",
			msg: "Отсутствует сообщение. Пожалуйста, введите сообщение.", want: forum.ErrTooShort},
		{src: "1.8.39 datahandler_pm pmdata_missing_message",
			msg: "Вы не ввели сообщение для отправки. Пожалуйста, введите сообщение.", want: forum.ErrTooShort},
		{src: "1.8.39 global invalid_post_code",
			msg: "Несоответствие кода авторизации. Вы правильно обращаетесь к этой функции? Пожалуйста, вернитесь и попробуйте снова.", want: forum.ErrBadToken},
		{src: "1.8.39 datahandler_login logindata_invalidpwordusername (+ messages failed_login_again)",
			msg: "Вы ввели неверную комбинацию имени пользователя/пароля. Если вы забыли свой пароль, пожалуйста, восстановите его. У вас осталось 4 попыток входа.", want: forum.ErrBadLogin},
		{src: "1.8.39 datahandler_login logindata_invalidpwordusernameemail",
			msg: "Вы ввели неверную комбинацию email/пароля. Если вы забыли свой пароль, пожалуйста, восстановите его.", want: forum.ErrBadLogin},
		{src: "1.8.39 messages failed_login_wait",
			msg: "Вы не смогли войти в систему в течение требуемого количества попыток. Теперь вы должны подождать 0ч 14м 59с, прежде чем сможете войти снова.", want: forum.ErrBadLogin},
		{src: "1.8.39 messages error_nopermission_user_1", member: true,
			msg: "У вас нет разрешения на доступ к этой страницы. Это может быть по одной из следующих причин:", want: forum.ErrNoPermission},
		{src: "1.8.39 messages error_nopermission_guest_1",
			msg: "Вы либо не вошли в систему, либо не имеете разрешения на просмотр этой страницы. Это может быть по одной из следующих причин:", want: forum.ErrLoggedOut},
		{src: "1.8.39 newreply error_post_already_submitted", member: true,
			msg: "Вы уже отправляли этот ответ в указанную тему. Пожалуйста, посетите тему, чтобы увидеть ваш ответ.", want: ErrAlreadyPosted},
		{src: "1.8.39 private error_pm_already_submitted", member: true,
			msg: "Вы уже отправляли такое же личное сообщение тому же получателю в течение последних 5 часов.", want: ErrAlreadyPosted},
		{src: "1.8.39 messages error_invalidthread", member: true,
			msg: "Указанная тема не существует.", want: forum.ErrNotFound},
		{src: "1.8.39 private error_invalidpmrecipient", member: true,
			msg: "Указанный получатель неверен или не существует. Пожалуйста, вернитесь и введите правильного.", want: forum.ErrNotFound},
		{src: "1.8.8 datahandler_post postdata_post_flooding",
			msg: "Вы пытаетесь отправить сообщение слишком быстро после публикации предыдущего сообщения. Пожалуйста, подождите более 45 секунд.", wait: 45 * time.Second},
		{src: "1.8.8 datahandler_post postdata_post_flooding_one_second",
			msg: "Вы пытаетесь отправить сообщение слишком быстро после публикации предыдущего сообщения. Пожалуйста, подождите еще 1 секунду.", wait: time.Second},
		{src: "1.8.8 datahandler_pm pmdata_pm_flooding",
			msg: "Вы пытаетесь отправить сообщение слишком быстро после отправки предыдущего сообщения. Пожалуйста, подождите больше  62 секунд.", wait: 62 * time.Second},
		{src: "1.8.8 datahandler_post postdata_message_too_long",
			msg: "Сообщение слишком длинное. Пожалуйста, введите сообщение короче 65535 символов (в настоящее время 70000).", want: forum.ErrTooLong, limit: 65535},
		{src: "1.8.8 datahandler_post postdata_message_too_short",
			msg: "Сообщение слишком коротким. Пожалуйста, введите сообщение длиннее 5 символов.", want: forum.ErrTooShort},
		{src: "1.8.8 datahandler_post postdata_missing_message",
			msg: "Поле сообщения не заполнено. Пожалуйста, заполните сообщение.", want: forum.ErrTooShort},
		{src: "1.8.8 global invalid_post_code",
			msg: "Несоответствие кода авторизации. Используете ли вы эту функцию правильно? Пожалуйста вернитесь и попробуйте снова.", want: forum.ErrBadToken},
		{src: "1.8.8 datahandler_login logindata_invalidpwordusername (+ messages failed_login_again)",
			msg: "Вы ввели не правильную компбинацию имя/пароль. Если Вы забыли своой пароль, пожалуйста запросите новый. У вас есть ещё 4 попыток входа в систему.", want: forum.ErrBadLogin},
		{src: "1.8.8 messages failed_login_wait",
			msg: "Вы не смогли войти в требуемое число попыток. Теперь вы должны пождать 0 час 14 мин 59 сек, прежде чем вы можете войти снова.", want: forum.ErrBadLogin},
		{src: "1.8.8 messages error_nopermission_user_1", member: true,
			msg: "Вы не имеете доступа к этой странице. Это может быть из-за одной из следующих причин:", want: forum.ErrNoPermission},
		{src: "1.8.8 messages error_nopermission_guest_1",
			msg: "Вы не вошли в систему или у вас нет разрешения на просмотр этой страницы. Это может быть вызвано одной из следующих причин:", want: forum.ErrLoggedOut},
		{src: "1.8.8 newreply error_post_already_submitted", member: true,
			msg: "Вы уже отправили этот ответ в указанную тему. Пожалуйста, посетите тему, чтобы увидеть ваш ответ.", want: ErrAlreadyPosted},
		{src: "1.8.8 private error_pm_already_submitted", member: true,
			msg: "Вы уже отправили одно и то же личное сообщение одному и тому же получателю в течение последних 5 часов.", want: ErrAlreadyPosted},
		{src: "1.8.8 private error_invalidpmrecipient", member: true,
			msg: "Указанный получатель недействителен или не существует. Пожалуйста, вернитесь назад и введите правильного получателя.", want: forum.ErrNotFound},
		{src: "1.6 datahandler_post postdata_post_flooding",
			msg: "Вы пытаетесь создать сообщение слишком быстро после создания предыдущего сообщения. Пожалуйста, подождите ещё 30 секунд.", wait: 30 * time.Second},
		{src: "1.6 datahandler_pm pmdata_pm_flooding",
			msg: "Вы пытаетесь отправить сообщение слишком быстро после отправки предыдущего. Пожалуйста, подождите 30 секунд.", wait: 30 * time.Second},
		{src: "1.6 datahandler_post postdata_message_too_long",
			msg: "Сообщение слишком длинное. Пожалуйста, введите сообщение короче, чем 65535 символов (в настоящий момент 70000).", want: forum.ErrTooLong, limit: 65535},
		{src: "1.6 datahandler_post postdata_message_too_short",
			msg: "Сообщение слишком короткое. Пожалуйста, введите сообщение длиннее, чем 5 символов", want: forum.ErrTooShort},
		{src: "1.6 datahandler_post postdata_missing_message",
			msg: "Пропущен текст сообщения. Пожалуйста, введите текст сообщения.", want: forum.ErrTooShort},
		{src: "1.6 datahandler_pm pmdata_missing_message",
			msg: "Вы не ввели сообщения для отсылки. Пожалуйста, введите сообщение.", want: forum.ErrTooShort},
		{src: "1.6 global invalid_post_code",
			msg: "Код авторизации не совпадает. Является ли Ваша попытка доступа к этой функции корректной? Пожалуйста, вернитесь и попробуйте снова.", want: forum.ErrBadToken},
		{src: "1.6 member error_invalidusername",
			msg: "Похоже, Вы ввели недопустимый логин.", want: forum.ErrBadLogin},
		{src: "1.6 member error_invalidpassword",
			msg: "Введенный пароль не верен. Если Вы забыли свой пароль, нажмите здесь. Иначе, вернитесь и попробуйте снова.", want: forum.ErrBadLogin},
		{src: "1.6 messages failed_login_wait",
			msg: "Вы превысили лимит попыток входа. Перед тем, как Вы сможете войти снова, необходимо подождать 0ч 14м 59с, перед тем как Вы сможете войти снова.", want: forum.ErrBadLogin},
		{src: "1.6 messages error_nopermission_user_1", member: true,
			msg: "Вы не вошли или не имеете разрешения для доступа к этой странице. Возможно, это произошло по одной из следующих причин:", want: forum.ErrNoPermission},
		{src: "1.6 messages error_nopermission_guest_1",
			msg: "Вы не вошли или не имеете разрешения для просмотра этой страницы. Возможно, это произошло по одной из следующих причин:", want: forum.ErrLoggedOut},
		{src: "1.6 newreply error_post_already_submitted", member: true,
			msg: "Вы уже создали это сообщение в указанной теме. Пожалуйста, посетите эту тему, чтобы увидеть там Ваш ответ.", want: ErrAlreadyPosted},
		{src: "1.6 private error_pm_already_submitted", member: true,
			msg: "Вы уже отправляли это личное сообщение в течении последних 5 минут.", want: ErrAlreadyPosted},
		{src: "1.6 private error_invalidpmrecipient", member: true,
			msg: "Указанный получатель либо неверен, либо не существует. Пожалуйста, вернитесь и попробуйте исправить это.", want: forum.ErrNotFound},
	} {
		err := classifyMessage(c.msg, c.member)
		var fe *forum.FloodError
		var tl *tooLongError
		switch {
		case c.wait > 0:
			if !errors.As(err, &fe) || fe.Wait != c.wait {
				t.Errorf("%s: %v, want a flood of %v", c.src, err, c.wait)
			}
		case !errors.Is(err, c.want):
			t.Errorf("%s: %v, want %v", c.src, err, c.want)
		case c.limit > 0 && (!errors.As(err, &tl) || tl.Limit != c.limit):
			t.Errorf("%s: limit of %v, want %d", c.src, err, c.limit)
		}
	}
}
