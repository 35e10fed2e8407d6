package punbb

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"forumgm/forum"
	"forumgm/internal/fixture"
)

// Russian packs' refusals, quoted (placeholders filled in as the engine does):
//   - PunBB 1.4: github.com/punbb/punbb, commit 841d7a39570d210cbaa6ca8b1e6899c5321b8e07,
//     lang/Russian/{post,common,login}.php;
//   - FluxBB 1.5.8: github.com/openstreetmap/fluxbb, commit 2b99c3ddca342541226d7fb0640cb3df62ef9ad4,
//     lang/Russian/{post,common,login}.php;
//   - FluxBB 1.5.11 by Visman: github.com/MioVisman/FluxBB_by_Visman, commit
//     eba28a59590c2d218b1492c9389be9eb8327e547, lang/Russian/{post,common,login}.php;
//   - PunBB 1.2 punbb-mod: github.com/Gemorroj/punbb-mod, commit
//     8e52d5e01ea5b7806437282809c3713814d9f9c2, lang/Russian/{post,common,login}.php (its flood
//     message is 'Flood start' + the group's interval + 'flood end', post.php).
func TestRussianPackTexts(t *testing.T) {
	for _, c := range []struct {
		src, msg string
		want     error
		wait     time.Duration
	}{
		{"punbb14 post Flood", "Должно пройти не менее 30 секунд между двумя сообщениями. Подождите немного и попытайтесь отправить сообщение ещё раз.", nil, 30 * time.Second},
		{"fluxbb158 post Flood start", "Нельзя оставлять сообщения чаще, чем раз в 30 секунд. Пожалуйста, подождите 12 секунд и попробуйте снова отправить сообщение.", nil, 30 * time.Second},
		{"visman post Flood start", "Хотя бы 30 секунд должно пройти между отправкой сообщений. Пожалуйста, подождите 12 секунд и попробуйте снова.", nil, 30 * time.Second},
		{"punbb-mod post Flood start/flood end", "Должно пройти, по крайней мере 30 секунд, между отправкой сообщений. Пожалуйста, попробуйте отправить очередное сообщение немного позже.", nil, 30 * time.Second},
		{"punbb14 post No message", "Вы должны ввести текст сообщения.", forum.ErrTooShort, 0},
		{"fluxbb158 post No message", "Вы должны ввести сообщение.", forum.ErrTooShort, 0},
		{"punbb14 post Too long message", "Длина вашего сообщения 70000 байт. Это превышает лимит форума в 65535 байт.", forum.ErrTooLong, 0},
		{"fluxbb158 post Too long message", "Сообщение не может быть длиннее 65535 символов.", forum.ErrTooLong, 0},
		{"punbb-mod post Too long message", "Сообщение не может быть длиннее 65535 символов (64 kb).", forum.ErrTooLong, 0},
		{"punbb14 post CSRF token mismatch", "Обнаружена проблема безопасности. Скорее всего, прошло много времени с тех пор, как вы открыли страницу. Нажмите кнопку «Отправить» ещё раз.", forum.ErrBadToken, 0},
		{"punbb14 common CSRF token mismatch", "Невозможно подтвердить маркер доступа. Возможно, прошло некоторое время после первого входа на страницу и последующей отправкой формы или щелчком по ссылке.", forum.ErrBadToken, 0},
		{"fluxbb158 common Bad referrer", "Плохой HTTP_REFERER. Вы перешли на эту страницу из неавторизованного источника.", forum.ErrBadToken, 0},
		{"visman common Bad referrer", "Неверный csrf_hash. Вы перешли на эту страницу из неавторизованного источника.", forum.ErrBadToken, 0},
		{"visman common Bad csrf hash", "Неверный CSRF хэш. Вы перешли на эту страницу из неавторизованного источника.", forum.ErrBadToken, 0},
		{"punbb-mod common Bad referrer", "Неверный источник. Вы попали на эту страницу из несанкционированного источника.", forum.ErrBadToken, 0},
		{"punbb14 login Wrong user/pass", "Неправильное имя или пароль.", forum.ErrBadLogin, 0},
		{"fluxbb158 login Wrong user/pass", "Неверное имя и/или пароль.", forum.ErrBadLogin, 0},
		{"visman login Wrong user/pass", "Неверное имя и/или пароль. Имя и пароль чувствительны к регистру!", forum.ErrBadLogin, 0},
		{"punbb-mod login Wrong user/pass", "Неправильное имя и/или пароль.", forum.ErrBadLogin, 0},
		{"punbb14 common No permission", "У вас нет права доступа к данной странице.", forum.ErrNoPermission, 0},
		{"fluxbb158 common No permission", "У вас нет прав на просмотр этой страницы.", forum.ErrNoPermission, 0},
		{"punbb-mod common No permission", "Вы не имеете прав для доступа к этой странице.", forum.ErrNoPermission, 0},
		{"punbb14 common Bad request", "Неверный запрос. Ссылка, по которой вы пришли, неверна или устарела.", forum.ErrNotFound, 0},
		{"fluxbb158 common Bad request", "Неверный запрос. Ссылка ошибочна или устарела.", forum.ErrNotFound, 0},
	} {
		if c.wait > 0 {
			// As PunBB 1.4 shows it: the error list over the re-shown form (the captured page,
			// its English message replaced).
			page := bytes.Replace(fixture.Read(t, "punbb", "25b-reply-error-flood.gm-bot.html"),
				[]byte("At least 10 seconds have to pass between posts. Please wait a while and try posting again."), []byte(c.msg), 1)
			doc, err := goquery.NewDocumentFromReader(bytes.NewReader(page))
			if err != nil {
				t.Fatal(err)
			}
			var fe *forum.FloodError
			if err := checkError(doc, 200); !errors.As(err, &fe) || fe.Wait != c.wait {
				t.Errorf("%s: %v, want a flood of %v", c.src, err, c.wait)
			}
			continue
		}
		if got := kindOfText(c.msg); got != c.want {
			t.Errorf("%s: %v, want %v", c.src, got, c.want)
		}
	}
}
