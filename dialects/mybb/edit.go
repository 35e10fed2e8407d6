package mybb

import (
	"context"
	"fmt"

	"forumgm/forum"
)

// EditPost changes the text of one of the bot's posts through MyBB's edit form
// (editpost.php?pid=P): edit gets the text the form shows (raw MyCode) and returns the new text,
// which is posted with the form's other fields as they are. A logged-out session or a rejected
// token is retried once like Reply (edit is called again on the fresh form).
func (f *Forum) EditPost(ctx context.Context, _ forum.Thread, id string, edit func(text string) (string, error)) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.retry().Do(ctx, func() error { return f.editOnce(ctx, id, edit) })
}

func (f *Forum) editOnce(ctx context.Context, id string, edit func(string) (string, error)) error {
	if id == "" {
		return fmt.Errorf("mybb: edit: no post id")
	}
	if err := f.ensureLogin(ctx); err != nil {
		return err
	}
	p, doc, err := f.get(ctx, editPostPath(id))
	if err != nil {
		return err
	}
	sel := doc.Find(selectors.EditForm).First()
	if sel.Length() == 0 {
		if perr := pageError(doc); perr != nil {
			return fmt.Errorf("mybb: edit post %s: %w", id, perr)
		}
		if !LoggedIn(doc) {
			return fmt.Errorf("mybb: edit form shown to a guest: %w", forum.ErrLoggedOut)
		}
		return fmt.Errorf("mybb: no edit form (%s): %w", selectors.EditForm, forum.ErrMarkupChanged)
	}
	form := readForm(sel, p.URL)
	if form.Values.Get("my_post_key") == "" {
		form.Values.Set("my_post_key", myPostKey(doc))
	}
	text, err := edit(form.Values.Get("message"))
	if err != nil {
		return err
	}
	form.Values.Set("message", text)
	form.Values.Set("action", "do_editpost")
	form.Values.Del("newattachment")
	form.Values.Set("submit", "Update Post")
	rp, rdoc, err := f.post(ctx, form, p.Charset)
	if err != nil {
		return err
	}
	if _, err := result(rdoc, rp.URL); err != nil {
		return fmt.Errorf("mybb: edit post %s: %w", id, err)
	}
	return nil
}
