package sandbox

import (
	"fmt"
	"html/template"
	"regexp"
	"strings"
	"time"
)

// Language is the board's language pack: MyBB's own English one (the default, the captured
// pages of testdata/forums/mybb) or the Russian pack of testdata/forums/mybb-russian (the words,
// the dates d.m.Y H:i, "Сегодня"/"Вчера", the quote cites, the error texts), as a Russian board
// shows it: what `forumgm sandbox` serves, so that players see the forum they will play on.
type Language string

// The language packs.
const (
	English Language = ""
	Russian Language = "russian"
)

// pack is a language's words: the page templates' fixed texts (pairs replaced in the templates'
// source, each with its markup around it so that no template action is touched), the messages
// the board's code writes (exact, then by pattern), and the date formats.
type pack struct {
	tmpl       *template.Template
	html       string // the <html lang=…>
	dateFormat string // Go layouts
	timeFormat string
	today      string
	yesterday  string
	messages   map[string]string
	patterns   []msgPattern
	relative   func(n int64, hours bool, future bool) string
	// markup is the MyCode's own texts (a code block's title, a quote's cite), replaced in
	// the rendered HTML, in the markup that only the renderer writes (nil: English).
	markup *strings.Replacer
}

type msgPattern struct {
	re *regexp.Regexp
	to string
}

// tr is a message in the pack's words (as it is when the pack has no words for it).
func (p *pack) tr(s string) string {
	if t, ok := p.messages[s]; ok {
		return t
	}
	for _, m := range p.patterns {
		if m.re.MatchString(s) {
			return m.re.ReplaceAllString(s, m.to)
		}
	}
	return s
}

// englishPack is MyBB's own pack: the templates as written.
var englishPack = &pack{tmpl: tmpl, html: "en", dateFormat: "01-02-2006", timeFormat: "03:04 PM", today: "Today", yesterday: "Yesterday",
	relative: func(n int64, hours, future bool) string {
		unit := "minute"
		if hours {
			unit = "hour"
		}
		if n != 1 {
			unit += "s"
		}
		if future {
			return fmt.Sprintf("in %d %s", n, unit)
		}
		return fmt.Sprintf("%d %s ago", n, unit)
	}}

// russianTemplatePairs are the templates' English texts and the Russian pack's (the captured
// pages' words; the few the captures do not show are the pack's wording of the same key).
var russianTemplatePairs = []string{
	`<html xml:lang="en" lang="en"`, `<html xml:lang="ru" lang="ru"`,
	`<strong>Welcome back, `, `<strong>С возвращением, `,
	`class="logout">Log Out<`, `class="logout">Выйти<`,
	`>Private Messages</a> (Unread {{.Unread}}, Total {{.TotalPMs}})`, `>Личные сообщения</a> (Непрочитанных {{.Unread}}, Всего {{.TotalPMs}})`,
	`>Hello There, Guest! <`, `>Привет, Гость! <`,
	`class="login">Login<`, `class="login">Войти<`,
	`<strong>Username:</strong>`, `<strong>Имя пользователя:</strong>`,
	`<strong>Password:</strong>`, `<strong>Пароль:</strong>`,
	`>Remember me<`, `>Запомнить меня<`,
	`> Remember me<`, `> Запомнить меня<`,
	`value="Login"`, `value="Вход"`,
	`<strong>Login</strong>`, `<strong>Вход</strong>`,
	`>Please note that passwords are case sensitive.<`, `>Обратите внимание, что пароли чувствительны к регистру.<`,
	`title="If ticked, your login details will be remembered on this computer, otherwise, you will be logged out as soon as you close your browser."`,
	`title="Если отмечено, ваши данные для входа будут запомнены на этом компьютере, иначе вы выйдете, как только закроете браузер."`,
	`<strong>You have one unread private message</strong> from `, `<strong>У вас одно непрочитанное личное сообщение</strong> от `,
	`</a> titled <a `, `</a> с заголовком <a `,
	`class="pagination_next">Next &raquo;<`, `class="pagination_next">Далее &raquo;<`,
	`class="pagination_previous">&laquo; Previous<`, `class="pagination_previous">&laquo; Назад<`,
	`<span class="pages">Pages (`, `<span class="pages">Страницы (`,
	`<strong>Current time:</strong>`, `<strong>Текущее время:</strong>`,
	`>Powered By MyBB (forumgm sandbox)<`, `>Работает на MyBB (песочница forumgm)<`,
	`>Click here if you don't want to wait any longer.<`, `>Нажмите здесь, если не хотите больше ждать.<`,
	`{{define "nopermission"}}You are either not logged in or do not have permission to view this page. This could be because one of the following reasons:`,
	`{{define "nopermission"}}Вы либо не вошли в систему, либо не имеете разрешения на просмотр этой страницы. Это может быть по одной из следующих причин:`,
	`<li>You are not logged in or registered. Please login and retry the desired action. <a href="member.php?action=login">Login</a> | <a href="member.php?action=register">Need to register?</a></li>`,
	`<li>Вы не вошли в систему или не зарегистрированы. Пожалуйста, войдите и повторите желаемое действие. <a href="member.php?action=login">Вход</a> | <a href="member.php?action=register">Нужно зарегистрироваться?</a></li>`,
	`<li>You do not have permission to access this page. Are you trying to access administrative pages or a resource that you shouldn't be?  Check in the forum rules that you are allowed to perform this action.</li>`,
	`<li>У вас нет разрешения на доступ к этой странице. Вы пытаетесь получить доступ к административным страницам или ресурсу, к которому не должны иметь доступа? Проверьте в правилах форума, разрешено ли вам выполнять это действие.</li>`,
	`<li>Your account may have been disabled by an administrator, or it may be awaiting account activation.</li>`,
	`<li>Ваша учетная запись могла быть отключена администратором или ожидает активации.</li>`,
	`<li>You have accessed this page directly rather than using appropriate forms or links.</li>`,
	`<li>Вы открыли эту страницу напрямую, а не через соответствующие формы или ссылки.</li>`,
	`<em>Please correct the following errors before continuing:</em>`, `<em>Пожалуйста, исправьте следующие ошибки перед продолжением:</em>`,
	"\tPosts: {{.NPosts}}<br />", "\tСообщений: {{.NPosts}}<br />",
	"\tThreads: {{.NThreads}}<br />", "\tТем: {{.NThreads}}<br />",
	"\tJoined: {{.Joined}}", "\tЗарегистрирован: {{.Joined}}",
	`<span class="edited_post">(This post was last modified: {{.EditDate}} by <a `, `<span class="edited_post">(Это сообщение было изменено: {{.EditDate}} пользователем <a `,
	`<em>Edit Reason: {{.EditReason}}</em>`, `<em>Причина редактирования: {{.EditReason}}</em>`,
	"\nTo: <a ", "\nКому: <a ",
	`title="Send this user a private message" class="postbit_pm"><span>PM<`, `title="Отправить пользователю личное сообщение" class="postbit_pm"><span>ЛС<`,
	`title="Find all posts by this user" class="postbit_find"><span>Find<`, `title="Найти все сообщения этого пользователя" class="postbit_find"><span>Найти<`,
	`title="Edit this post" class="postbit_edit postbit_mirage"><span>Edit<`, `title="Редактировать это сообщение" class="postbit_edit postbit_mirage"><span>Редактировать<`,
	`title="Quote this message in a reply" class="postbit_quote postbit_mirage"><span>Reply<`, `title="Процитировать сообщение в ответе" class="postbit_quote postbit_mirage"><span>Ответить<`,
	`title="Reply to this private message" class="postbit_reply_pm"><span>Reply<`, `title="Ответить на это личное сообщение" class="postbit_reply_pm"><span>Ответить<`,
	`<span>New Reply</span>`, `<span>Новый ответ</span>`,
	`>Next Oldest</a> | <a `, `>Следующая старая</a> | <a `,
	`>Next Newest</a> &raquo;`, `>Следующая новая</a> &raquo;`,
	`<strong>Quick Reply</strong>`, `<strong>Быстрый ответ</strong>`,
	`<strong>Message</strong><br />`, `<strong>Сообщение</strong><br />`,
	`>Type your reply to this message here.<`, `>Введите ваш ответ на это сообщение здесь.<`,
	`<strong>Disable Smilies</strong>`, `<strong>Отключить смайлы</strong>`,
	`<strong>Close Thread</strong>`, `<strong>Закрыть тему</strong>`,
	`<strong>Stick Thread</strong>`, `<strong>Закрепить тему</strong>`,
	`value="Post Reply"`, `value="Отправить ответ"`,
	`<strong>Inline Post Moderation:</strong>`, `<strong>Модерация сообщений:</strong>`,
	`>Delete Posts<`, `>Удалить сообщения<`, `>Merge Posts<`, `>Объединить сообщения<`, `>Split Posts<`, `>Разделить сообщения<`,
	`value="Go (0)"`, `value="Выполнить (0)"`,
	`<strong>Post a New Reply</strong>`, `<strong>Написать ответ</strong>`,
	`<strong>Reply to thread: {{.Subject}}</strong>`, `<strong>Ответ в тему: {{.Subject}}</strong>`,
	`>change user<`, `>сменить пользователя<`,
	`<strong>Post Subject:</strong>`, `<strong>Заголовок сообщения:</strong>`,
	`<strong>Your Message:</strong>`, `<strong>Ваше сообщение:</strong>`,
	`<strong>Post Options:</strong>`, `<strong>Параметры сообщения:</strong>`,
	`<strong>Disable Smilies:</strong> disable smilies from showing in this post.`, `<strong>Отключить смайлы:</strong> отключить отображение смайлов в этом сообщении.`,
	`<strong>Disable Smilies:</strong> disable smilies from showing in this message.`, `<strong>Отключить смайлы:</strong> отключить отображение смайлов в этом сообщении.`,
	`<strong>Moderator Options:</strong>`, `<strong>Параметры модератора:</strong>`,
	`</strong>: prevent further posting in this thread.`, `</strong>: запретить дальнейшие ответы в этой теме.`,
	`<strong>Stick Thread:</strong> stick this thread to the top of the forum.`, `<strong>Закрепить тему:</strong> закрепить эту тему вверху форума.`,
	`<strong>Attachments</strong>`, `<strong>Вложения</strong>`,
	`>Your allocated attachment usage quota is Unlimited.  <`, `>Ваш выделенный лимит использования вложений составляет Без ограничений.  <`,
	`<strong>New Attachment:</strong>`, `<strong>Новое вложение:</strong>`,
	`value="Add Attachment"`, `value="Добавить вложение"`,
	`value="Remove"`, `value="Удалить"`,
	`value="Insert Into Post"`, `value="Вставить в сообщение"`,
	`title="Image"`, `title="Изображение"`,
	`<strong>Thread Review (Newest First)</strong>`, `<strong>Обзор темы (сначала новые)</strong>`,
	`<strong>Posted by {{$p.Author}} - {{$p.Date}}</strong>`, `<strong>Автор {{$p.Author}} - {{$p.Date}}</strong>`,
	`<strong>Post a New Thread</strong>`, `<strong>Создать новую тему</strong>`,
	`<strong>Thread Subject:</strong>`, `<strong>Заголовок темы:</strong>`,
	`value="Post Thread"`, `value="Создать тему"`,
	`<strong>Edit This Post</strong>`, `<strong>Редактировать сообщение</strong>`,
	`<strong>Subject:</strong>`, `<strong>Тема:</strong>`,
	`<strong>Edit Reason:</strong>`, `<strong>Причина редактирования:</strong>`,
	`value="Update Post"`, `value="Обновить сообщение"`,
	`>Forum<`, `>Форум<`, `>Threads<`, `>Темы<`, `>Posts<`, `>Сообщений<`, `>Last Post<`, `>Последнее сообщение<`,
	`>Never<`, `>Никогда<`, `title="No new posts."`, `title="Нет новых сообщений."`,
	`>Mark this forum read<`, `>Отметить этот форум прочитанным<`,
	`<span>Post Thread</span>`, `<span>Создать тему</span>`,
	`>Thread<`, `>Тема<`, `>Author<`, `>Автор<`, `>Replies<`, `>Ответов<`, `>Views<`, `>Просмотров<`,
	`>Sorry, but there are currently no threads in this forum with the specified date and time limiting options.<`,
	`>Извините, но в этом форуме сейчас нет тем с указанными ограничениями по дате и времени.<`,
	`>Menu<`, `>Меню<`, `>Inbox<`, `>Входящие<`, `>Sent Items<`, `>Отправленные<`, `>Compose<`, `>Написать<`,
	`>Compose Message<`, `>Написать сообщение<`, `>Compose a Private Message<`, `>Написать личное сообщение<`,
	`>Message Title<`, `>Заголовок сообщения<`, `>Date/Time Sent<`, `>Дата/время отправки<`,
	`>There are no messages in this folder.<`, `>В этой папке нет сообщений.<`,
	`title="New Message"`, `title="Новое сообщение"`, `title="Old Message"`, `title="Прочитанное сообщение"`,
	`title="Check All"`, `title="Выделить все"`, `value="Check All"`, `value="Выделить все"`,
	`>Recipients:<`, `>Получатели:<`, `>BCC:<`, `>Скрытая копия:<`,
	`>Separate multiple user names with a comma.<`, `>Разделяйте имена пользователей запятой.<`,
	`>You may send this message to a maximum of <`, `>Это сообщение можно отправить не более чем <`,
	`> people.<`, `> пользователям.<`,
	`>Message:<`, `>Сообщение:<`, `>Subject:<`, `>Тема:<`, `>Options:<`, `>Параметры:<`,
	`>Save a Copy:<`, `>Сохранить копию:<`, `>Save a Copy<`, `>Сохранить копию<`,
	`> save a copy of this message in your Sent Items folder.<`, `> сохранить копию этого сообщения в папке «Отправленные».<`,
	`>Disable Smilies:<`, `>Отключить смайлы:<`,
	`value="Send Message"`, `value="Отправить сообщение"`,
	`>Unread<`, `>Непрочитанные<`,
	`>by <`, `>от <`,
}

// russianMessages are the board's own messages in the Russian pack's words (the captures').
var russianMessages = map[string]string{
	"Authorization code mismatch. Are you accessing this function correctly? Please go back and try again.": "Несоответствие кода авторизации. Вы правильно обращаетесь к этой функции? Пожалуйста, вернитесь и попробуйте снова.",
	"The specified forum does not exist.":  "Указанный форум не существует.",
	"The specified thread does not exist.": "Указанная тема не существует.",
	"The specified post does not exist.":   "Указанное сообщение не существует.",
	"You have already posted this reply to the specified thread. Please visit the thread to see your reply.":      "Вы уже отправляли этот ответ в указанную тему. Пожалуйста, посетите тему, чтобы увидеть ваш ответ.",
	"The message is missing. Please enter a message.":                                                             "Отсутствует сообщение. Пожалуйста, введите сообщение.",
	"The subject is missing. Please enter a subject.":                                                             "Отсутствует заголовок. Пожалуйста, введите заголовок.",
	"You do not have permission to edit this post.":                                                               "У вас нет разрешения на редактирование этого сообщения.",
	"You did not enter any recipients for this message. You must enter at least one recipient in the 'To' field.": "Вы не указали получателей этого сообщения. Нужно указать хотя бы одного получателя в поле «Кому».",
	"You can only send this private message to a maximum of 5 people.":                                            "Это личное сообщение можно отправить не более чем 5 пользователям.",
	"You did not enter a subject for your message. Please enter one.":                                             "Вы не ввели заголовок сообщения. Пожалуйста, введите его.",
	"You did not enter a message. Please enter a message to send.":                                                "Вы не ввели сообщение. Пожалуйста, введите сообщение для отправки.",
	"Important Threads": "Важные темы",
	"Normal Threads":    "Обычные темы",
	"My Category":       "Игры",
	"Post Reply":        "Ответить",
	"Post New Thread":   "Новая тема",
	"Edit Post":         "Редактировать сообщение",
	"Thank you, this post has been edited.<br />You will now be returned to the thread.":                                       "Спасибо, это сообщение было отредактировано.<br />Сейчас вы будете возвращены в тему.",
	"You have successfully been logged in.<br />You will now be taken back to where you came from.":                            "Вы успешно вошли.<br />Сейчас вы будете возвращены туда, откуда пришли.",
	"You have successfully been logged out.<br />You will now be taken back to the forum index.":                               "Вы успешно вышли.<br />Сейчас вы будете возвращены на главную страницу форума.",
	"Thank you, your private message has successfully been sent.<br />You will now be returned to your private message inbox.": "Спасибо, ваше личное сообщение было успешно отправлено.<br />Сейчас вы будете возвращены во входящие личные сообщения.",
	"The specified attachment does not exist.":                                                                                 "Указанное вложение не существует.",
	"The member you specified is either invalid or doesn't exist.":                                                             "Указанный пользователь недействителен или не существует.",
	"The private message you tried to access does not exist or you do not have permission to view it.":                         "Личное сообщение, которое вы пытаетесь открыть, не существует, или у вас нет разрешения на его просмотр.",
}

// russianPatterns are the messages with numbers or names in them.
var russianPatterns = []msgPattern{
	{regexp.MustCompile(`^The message is too short\. Please enter a message longer than (\d+) characters\.$`), "Сообщение слишком короткое. Пожалуйста, введите сообщение длиннее $1 символов."},
	{regexp.MustCompile(`^The message is too long\. Please enter a message shorter than (\d+) characters \(currently (\d+)\)\.$`), "Сообщение слишком длинное. Пожалуйста, введите сообщение короче $1 символов (сейчас $2)."},
	{regexp.MustCompile(`^The subject is too long\. Please enter a subject shorter than (\d+) characters \(currently (\d+)\)\.$`), "Заголовок слишком длинный. Пожалуйста, введите заголовок короче $1 символов (сейчас $2)."},
	{regexp.MustCompile(`^You are trying to send a message too quickly after sending a previous message\. Please wait (\d+) more seconds?\.$`), "Вы пытаетесь отправить сообщение слишком быстро после отправки предыдущего сообщения. Пожалуйста, подождите еще $1 секунд(ы)."},
	{regexp.MustCompile(`^You are trying to post a reply too quickly after posting a previous reply\. Please wait (\d+) more seconds?\.$`), "Вы пытаетесь отправить сообщение слишком быстро после отправки предыдущего сообщения. Пожалуйста, подождите еще $1 секунд(ы)."},
	{regexp.MustCompile(`^One or more of the recipients you entered are not registered users: (.*)$`), "Один или несколько указанных получателей не зарегистрированы: $1"},
	{regexp.MustCompile(`^Thank you, your reply has been posted\.<br />You will now be taken to your post\.<br /><br />Alternatively, <a href="([^"]*)">return to the forum</a>\.$`),
		`Спасибо, ваш ответ был отправлен.<br />Сейчас вы будете перенаправлены к вашему сообщению.<br /><br />Или <a href="$1">вернуться на форум</a>.`},
	{regexp.MustCompile(`^Thank you, your thread has been posted\.<br />You will now be taken to the new thread\.<br /><br />Alternatively, <a href="([^"]*)">return to the forum</a>\.$`),
		`Спасибо, ваша тема была создана.<br />Сейчас вы будете перенаправлены в новую тему.<br /><br />Или <a href="$1">вернуться на форум</a>.`},
}

// russianPack is the Russian pack (see Language).
var russianPack = func() *pack {
	src := tmplText
	for i := 0; i+1 < len(russianTemplatePairs); i += 2 {
		if !strings.Contains(tmplText, russianTemplatePairs[i]) {
			panic("sandbox: the Russian pack's text " + russianTemplatePairs[i] + " is not in the templates")
		}
		src = strings.ReplaceAll(src, russianTemplatePairs[i], russianTemplatePairs[i+1])
	}
	return &pack{tmpl: template.Must(template.New("").Parse(src)), html: "ru", dateFormat: "02.01.2006", timeFormat: "15:04",
		today: "Сегодня", yesterday: "Вчера", messages: russianMessages, patterns: russianPatterns,
		markup: strings.NewReplacer(`<div class="title">Code:</div>`, `<div class="title">Код:</div>`,
			`<cite>Quote:</cite>`, `<cite>Цитата:</cite>`, ` Wrote:<a href="`, ` Написал(а):  <a href="`, ` Wrote:</cite>`, ` Написал(а):</cite>`,
			`<div class="spoiler_title">Spoiler</div>`, `<div class="spoiler_title">Спойлер</div>`),
		relative: func(n int64, hours, future bool) string {
			// The pack's words as the captured board prints them ("2 часов назад", "5 минут назад").
			unit := "минут"
			if hours {
				unit = "часов"
			}
			if future {
				return fmt.Sprintf("через %d %s", n, unit)
			}
			return fmt.Sprintf("%d %s назад", n, unit)
		}}
}()

// packOf is the pack of a language.
func packOf(l Language) (*pack, error) {
	switch l {
	case English, "english", "en":
		return englishPack, nil
	case Russian, "ru":
		return russianPack, nil
	}
	return nil, fmt.Errorf("sandbox: language %q: want english or russian", l)
}

// absDate is the absolute form MyBB puts in title attributes: "11-30-2026, 03:16 AM" (English),
// "30.11.2026, 03:16" (Russian).
func (p *pack) absDate(t time.Time, loc *time.Location) string {
	t = t.In(loc)
	return t.Format(p.dateFormat) + ", " + t.Format(p.timeFormat)
}
