package sandbox

import (
	"html/template"
)

// The page templates copy the structure of MyBB 1.8's default theme as the captured pages show
// it (ids, classes, form fields, texts); scripts and external style sheets are left out and a
// small inline style sheet keeps the pages usable in a browser.
var tmpl = template.Must(template.New("").Parse(tmplText))

const tmplText = `
{{define "head"}}<head>
<title>{{.Title}}</title>
{{if .Refresh}}<meta http-equiv="refresh" content="2;URL={{.Refresh}}" />
{{end}}<meta http-equiv="Content-Type" content="text/html; charset={{.Charset}}" />
<meta http-equiv="Content-Script-Type" content="text/javascript" />
<style type="text/css">
body { background: #efefef; color: #000; font-family: Tahoma, Verdana, Arial, sans-serif; font-size: 13px; margin: 0; }
a { color: #0072BC; text-decoration: none; } a:hover { text-decoration: underline; }
#container { max-width: 1100px; margin: 0 auto; background: #fff; padding: 0 12px 12px; }
#header #logo { padding: 10px 0; font-size: 22px; font-weight: bold; }
#panel { background: #f2f2f2; border: 1px solid #ccc; padding: 6px 8px; margin-bottom: 10px; }
#panel ul.menu { display: inline; list-style: none; margin: 0; padding: 0; } #panel ul.menu li { display: inline; margin-right: 10px; }
.navigation { margin: 6px 0; } .navigation .active { font-weight: bold; }
table.tborder { width: 100%; border: 1px solid #ccc; border-collapse: collapse; background: #fff; }
.thead { background: #0066a2; color: #fff; padding: 6px; } .thead a { color: #fff; }
.tcat { background: #ddd; padding: 5px; } .trow1 { background: #f5f5f5; } .trow2 { background: #efefef; } .tfoot { background: #ddd; }
.float_left { float: left; } .float_right { float: right; } .clear, br.clear { clear: both; }
.smalltext { font-size: 11px; } .largetext { font-size: 15px; font-weight: bold; }
.pagination { padding: 6px 0; } .pagination a, .pagination .pagination_current { border: 1px solid #ccc; padding: 1px 6px; margin: 0 1px; }
.pagination .pagination_current { font-weight: bold; background: #eee; }
.post { border-bottom: 1px solid #ccc; overflow: hidden; } .post .post_author { background: #f5f5f5; padding: 6px; border-bottom: 1px solid #ddd; overflow: hidden; }
.post .post_author .author_avatar { float: left; margin-right: 8px; } .post .post_author .author_avatar img { width: 40px; height: 40px; background: #ccc; }
.post .post_author .author_information { float: left; } .post .post_author .author_statistics { float: right; font-size: 11px; }
.post .post_content { padding: 8px; } .post .post_head { border-bottom: 1px dotted #ddd; padding-bottom: 4px; margin-bottom: 8px; }
.post_date { color: #666; font-size: 11px; } .edited_post { font-size: 10px; color: #999; }
.post_body { font-size: 14px; line-height: 1.4; }
.post_controls { clear: both; background: #eee; padding: 4px 8px; overflow: hidden; }
.postbit_buttons a { border: 1px solid #ccc; padding: 2px 6px; background: #fff; margin-left: 4px; font-size: 11px; }
blockquote.mycode_quote { border: 1px solid #ccc; background: #fff; margin: 6px 10px; padding: 6px; }
blockquote.mycode_quote cite { display: block; font-style: normal; font-weight: bold; border-bottom: 1px solid #ccc; margin-bottom: 4px; }
blockquote.mycode_quote cite > span { float: right; font-weight: normal; font-size: 11px; color: #666; }
.codeblock { background: #fff; border: 1px solid #ccc; padding: 6px; margin: 6px 0; }
.codeblock .title { border-bottom: 1px solid #ccc; font-weight: bold; margin-bottom: 4px; }
.codeblock code { font-family: Monaco, Consolas, "DejaVu Sans Mono", Courier, monospace; font-size: 13px; display: block; }
.spoiler { border: 1px solid #ccc; margin: 4px 0; } .spoiler_title { background: #eee; padding: 3px; font-weight: bold; } .spoiler_content { padding: 4px; }
.error { background: #ffe0e0; border: 1px solid #c00; padding: 6px; margin: 8px 0; } .pm_alert { background: #fff6bf; border: 1px solid #ffd324; padding: 6px; margin-bottom: 8px; }
.button { padding: 3px 10px; } textarea { font-family: Monaco, Consolas, "DejaVu Sans Mono", monospace; }
#footer { margin-top: 14px; border-top: 1px solid #ccc; padding-top: 6px; font-size: 11px; color: #666; }
</style>
<script type="text/javascript">
	var cookieDomain = "";
	var cookiePath = "/";
	var my_post_key = "{{.Key}}";
	var rootpath = "{{.BB}}";
</script>
</head>{{end}}

{{define "header"}}<body>
<div id="container">
		<a name="top" id="top"></a>
		<div id="header">
			<div id="logo">
				<div class="wrapper">
					<a href="{{.BB}}/index.php">{{.Board}}</a>
				</div>
			</div>
			<div id="panel">
				<div class="upper">
					<div class="wrapper">
{{if .User}}	<span class="welcome"><strong>Welcome back, <a href="{{.BB}}/member.php?action=profile&amp;uid={{.User.UID}}">{{.User.Name}}</a></strong>. <a href="{{.BB}}/member.php?action=logout&amp;logoutkey={{.LogoutKey}}" class="logout">Log Out</a></span>
	</div>
</div>
<div class="lower">
	<div class="wrapper">
		<ul class="menu user_links">
			<li><a href="{{.BB}}/private.php">Private Messages</a> (Unread {{.Unread}}, Total {{.TotalPMs}})</li>
		</ul>
	</div>
	<br class="clear" />
</div>
{{else}}						<span class="welcome">Hello There, Guest! <a href="{{.BB}}/member.php?action=login" class="login">Login</a></span>
					</div>
				</div>
				<div class="modal" id="quick_login" style="display: none;">
					<form method="post" action="{{.BB}}/member.php">
						<input name="action" type="hidden" value="do_login" />
						<input name="url" type="hidden" value="" />
						<input name="quick_login" type="hidden" value="1" />
						<input name="my_post_key" type="hidden" value="{{.Key}}" />
						<table width="100%" cellspacing="0" cellpadding="5" border="0" class="tborder">
<tr>
	<td class="trow1" width="25%"><strong>Username:</strong></td>
	<td class="trow1"><input name="quick_username" id="quick_login_username" type="text" value="" class="textbox initial_focus" /></td>
</tr>
<tr>
	<td class="trow2"><strong>Password:</strong></td>
	<td class="trow2"><input name="quick_password" id="quick_login_password" type="password" value="" class="textbox" /></td>
</tr>
<tr>
	<td class="trow1">&nbsp;</td>
	<td class="trow1 remember_me"><input name="quick_remember" id="quick_login_remember" type="checkbox" value="yes" class="checkbox" checked="checked" /><label for="quick_login_remember">Remember me</label></td>
</tr>
<tr>
	<td class="trow2" colspan="2"><div align="center"><input name="submit" type="submit" class="button" value="Login" /></div></td>
</tr>
						</table>
					</form>
				</div>
{{end}}			</div>
		</div>
		<div id="content">
			<div class="wrapper">
{{with .PMAlert}}<div class="pm_alert" id="pm_notice">
	<div><strong>You have one unread private message</strong> from <a href="{{$.BB}}/member.php?action=profile&amp;uid={{.FromID}}">{{.FromName}}</a> titled <a href="{{$.BB}}/private.php?action=read&amp;pmid={{.PMID}}" style="font-weight: bold;">{{.Subject}}</a></div>
</div>
{{end}}
<div class="navigation">
<a href="{{.BB}}/index.php">{{.Board}}</a>{{range .Nav}}
&rsaquo;
<a href="{{.URL}}">{{.Name}}</a>{{with .Pages}}
 <img src="{{$.BB}}/images/arrow_down.png" alt="v" title="" class="pagination_breadcrumb_link" id="breadcrumb_multipage" />
<div id="breadcrumb_multipage_popup" class="pagination pagination_breadcrumb" style="display: none;">
{{range .Links}}{{if .Current}} <a href="{{.URL}}" class="pagination_current">{{.N}}</a>
{{else}}<a href="{{.URL}}" class="pagination_page">{{.N}}</a>
{{end}}{{end}}{{if .Next}}<a href="{{.Next}}" class="pagination_next">Next &raquo;</a>
{{end}}</div>{{end}}{{end}}{{if .NavActive}}
<br /><img src="{{.BB}}/images/nav_bit.png" alt="" />
<span class="active">{{.NavActive}}</span>{{end}}
</div>
				<br />
{{end}}

{{define "footer"}}
	</div>
</div>
<div id="footer">
	<div class="lower">
		<div class="wrapper">
			<span id="current_time"><strong>Current time:</strong> {{.CurrentTime}}</span>
			<span id="copyright">Powered By MyBB (forumgm sandbox)</span>
		</div>
	</div>
</div>
</div>
</body>{{end}}

{{define "layout"}}<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xml:lang="en" lang="en" xmlns="http://www.w3.org/1999/xhtml">
{{template "head" .}}
{{template "header" .}}{{.Content}}{{template "footer" .}}
</html>
{{end}}

{{define "redirect"}}<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xml:lang="en" lang="en" xmlns="http://www.w3.org/1999/xhtml">
{{template "head" .}}
<body>
<br />
<br />
<br />
<br />
<div style="margin: auto auto; width: 50%" align="center">
<table border="0" cellspacing="0" cellpadding="5" class="tborder">
<tr>
<td class="thead"><strong>{{.Board}}</strong></td>
</tr>
<tr>
<td class="trow1" align="center"><p>{{.Content}}</p></td>
</tr>
<tr>
<td class="trow2" align="right"><a href="{{.Refresh}}"><span class="smalltext">Click here if you don't want to wait any longer.</span></a></td>
</tr>
</table>
</div>
</body>
</html>
{{end}}

{{define "error"}}
<br />
<table border="0" cellspacing="0" cellpadding="5" class="tborder">
<tr>
<td class="thead"><span class="smalltext"><strong>{{.Board}}</strong></span></td>
</tr>
<tr>
<td class="trow1">{{.Message}}</td>
</tr>
</table>
{{end}}

{{define "nopermission"}}You are either not logged in or do not have permission to view this page. This could be because one of the following reasons:
<ol>
<li>You are not logged in or registered. Please login and retry the desired action. <a href="member.php?action=login">Login</a> | <a href="member.php?action=register">Need to register?</a></li>
<li>You do not have permission to access this page. Are you trying to access administrative pages or a resource that you shouldn't be?  Check in the forum rules that you are allowed to perform this action.</li>
<li>Your account may have been disabled by an administrator, or it may be awaiting account activation.</li>
<li>You have accessed this page directly rather than using appropriate forms or links.</li>
</ol>
{{end}}

{{define "errors"}}{{if .}}
<div class="error">
	<p><em>Please correct the following errors before continuing:</em></p>
	<ul>
		{{range .}}
<li>{{.}}</li>
{{end}}
	</ul>
</div>
<br />
{{end}}{{end}}

{{define "login"}}
<br />
{{template "errors" .Errors}}
<form action="member.php" method="post">
<table border="0" cellspacing="0" cellpadding="5" class="tborder">
<tr>
<td class="thead" colspan="2"><strong>Login</strong></td>
</tr>
<tr>
<td class="trow1"><strong>Username:</strong></td>
<td class="trow1"><input type="text" class="textbox" name="username" size="25" style="width: 200px;" value="{{.Username}}" /></td>
</tr>
<tr>
<td class="trow2"><strong>Password:</strong><br /><span class="smalltext">Please note that passwords are case sensitive.</span></td>
<td class="trow2"><input type="password" class="textbox" name="password" size="25" style="width: 200px;" value="" /></td>
</tr>
<tr>
<td class="trow1" colspan="2" align="center"><label title="If ticked, your login details will be remembered on this computer, otherwise, you will be logged out as soon as you close your browser."><input type="checkbox" class="checkbox" name="remember" checked="checked" value="yes" /> Remember me</label></td>
</tr>

</table>
<br />
<div align="center"><input type="submit" class="button" name="submit" value="Login" /></div>
<input type="hidden" name="action" value="do_login" />
<input type="hidden" name="url" value="{{.URL}}" />
<input name="my_post_key" type="hidden" value="{{.Key}}" />
</form>
{{end}}

{{define "pagination"}}{{if gt .Pages 1}}<div class="pagination">
<span class="pages">Pages ({{.Pages}}):</span>
{{if .Prev}}<a href="{{.Prev}}" class="pagination_previous">&laquo; Previous</a>
{{end}}{{range .Links}}{{if .Current}} <span class="pagination_current">{{.N}}</span>
{{else if .Dots}}<span class="pagination_dots">...</span>
{{else}}<a href="{{.URL}}" class="pagination_page">{{.N}}</a>
{{end}}{{end}}{{if .Next}}<a href="{{.Next}}" class="pagination_next">Next &raquo;</a>
{{end}}</div>
{{end}}{{end}}

{{define "postbit"}}
<a name="pid{{.PID}}" id="pid{{.PID}}"></a>
<div class="post " style="" id="post_{{.PID}}">
<div class="post_author">
<div class="author_avatar"><a href="member.php?action=profile&amp;uid={{.UID}}"><img src="{{.BB}}/images/default_avatar.png" alt="" width="55" height="55" /></a></div>
	<div class="author_information">
			<strong><span class="largetext"><a href="{{.BB}}/member.php?action=profile&amp;uid={{.UID}}">{{.Author}}</a></span></strong><br />
			<span class="smalltext">
				{{.UserTitle}}<br />
				{{.Stars}}<br />
			</span>
	</div>
	<div class="author_statistics">
	Posts: {{.NPosts}}<br />
	Threads: {{.NThreads}}<br />
	Joined: {{.Joined}}
	</div>
</div>
<div class="post_content">
	<div class="post_head">
		{{if .Permalink}}<div class="float_right" style="vertical-align: top">
<strong><a href="{{.Permalink}}" title="{{.Subject}}">#{{.Num}}</a></strong>
</div>
{{end}}		<span class="post_date">{{.Date}} <span class="post_edit" id="edited_by_{{.PID}}">{{if .Edited}}
<span class="edited_post">(This post was last modified: {{.EditDate}} by <a href="{{.BB}}/member.php?action=profile&amp;uid={{.EditUID}}">{{.Editor}}</a>.{{if .EditReason}}
 <em>Edit Reason: {{.EditReason}}</em>
{{end}})</span>
{{end}}</span></span>
{{if .ToName}}<br />
To: <a href="{{.BB}}/member.php?action=profile&amp;uid={{.ToUID}}">{{.ToName}}</a>
{{end}}	</div>
	<div class="post_body scaleimages" id="pid_{{.PID}}">
		{{.Body}}
	</div>
	{{.Attachments}}
	<div class="post_meta" id="post_meta_{{.PID}}">
		<div class="float_right">
		</div>
	</div>
</div>
<div class="post_controls">
	<div class="postbit_buttons author_buttons float_left">
{{if .PMLink}}<a href="private.php?action=send&amp;uid={{.UID}}" title="Send this user a private message" class="postbit_pm"><span>PM</span></a>
{{end}}<a href="search.php?action=finduser&amp;uid={{.UID}}" title="Find all posts by this user" class="postbit_find"><span>Find</span></a>
	</div>
	<div class="postbit_buttons post_management_buttons float_right">
{{if .EditLink}}<a href="editpost.php?pid={{.PID}}" id="edit_post_{{.PID}}" title="Edit this post" class="postbit_edit postbit_mirage"><span>Edit</span></a>
{{end}}{{if .QuoteLink}}<a href="{{.QuoteLink}}" title="Quote this message in a reply" class="postbit_quote postbit_mirage"><span>Reply</span></a>
{{end}}{{if .PMReplyLink}}<a href="{{.PMReplyLink}}" title="Reply to this private message" class="postbit_reply_pm"><span>Reply</span></a>
{{end}}	</div>
</div>
</div>
{{end}}

{{define "showthread"}}
	<div class="float_left">
		{{template "pagination" .Pagination}}
	</div>
	<div class="float_right">
{{if .CanReply}}<a href="newreply.php?tid={{.TID}}" class="button new_reply_button"><span>New Reply</span></a>&nbsp;
{{end}}	</div>
	<table border="0" cellspacing="0" cellpadding="5" class="tborder tfixed clear">
		<tr>
			<td class="thead">
				<div>
					<strong>{{.Subject}}</strong>
				</div>
			</td>
		</tr>
<tr><td id="posts_container">
	<div id="posts">
		{{range .Posts}}{{template "postbit" .}}{{end}}
	</div>
</td></tr>
		<tr>
			<td class="tfoot">
				<div>
					<strong>&laquo; <a href="showthread.php?tid={{.TID}}&amp;action=nextoldest">Next Oldest</a> | <a href="showthread.php?tid={{.TID}}&amp;action=nextnewest">Next Newest</a> &raquo;</strong>
				</div>
			</td>
		</tr>
	</table>
	<div class="float_left">
		{{template "pagination" .Pagination}}
	</div>
	<div style="padding-top: 4px;" class="float_right">
{{if .CanReply}}<a href="newreply.php?tid={{.TID}}" class="button new_reply_button"><span>New Reply</span></a>&nbsp;
{{end}}	</div>
	<br class="clear" />
{{if .CanReply}}
<br />

<form method="post" action="newreply.php?tid={{.TID}}&amp;processed=1" name="quick_reply_form" id="quick_reply_form">
	<input type="hidden" name="my_post_key" value="{{.Key}}" />
	<input type="hidden" name="subject" value="RE: {{.Subject}}" />
	<input type="hidden" name="action" value="do_newreply" />
	<input type="hidden" name="posthash" value="{{.PostHash}}" id="posthash" />
	<input type="hidden" name="quoted_ids" value="" id="quoted_ids" />
	<input type="hidden" name="lastpid" id="lastpid" value="{{.LastPID}}" />
	<input type="hidden" name="from_page" value="{{.Page}}" />
	<input type="hidden" name="tid" value="{{.TID}}" />
	<input type="hidden" name="method" value="quickreply" />

	<table border="0" cellspacing="0" cellpadding="5" class="tborder">
		<thead>
			<tr>
				<td class="thead" colspan="2">
					<div><strong>Quick Reply</strong></div>
				</td>
			</tr>
		</thead>
		<tbody style="" id="quickreply_e">
			<tr>
				<td class="trow1" valign="top" width="22%">
					<strong>Message</strong><br />
					<span class="smalltext">Type your reply to this message here.<br /><br />
					<label><input type="checkbox" class="checkbox" name="postoptions[disablesmilies]" value="1" />&nbsp;<strong>Disable Smilies</strong></label>{{if .ModOptions}}
<br /><label><input type="checkbox" class="checkbox" name="modoptions[closethread]" value="1" />&nbsp;<strong>Close Thread</strong></label>
<br /><label><input type="checkbox" class="checkbox" name="modoptions[stickthread]" value="1" />&nbsp;<strong>Stick Thread</strong></label>
{{end}}</span>
				</td>
				<td class="trow1">
					<div style="width: 95%">
						<textarea style="width: 100%; padding: 4px; margin: 0;" rows="8" cols="80" name="message" id="message" tabindex="1"></textarea>
					</div>
				</td>
			</tr>
			<tr>
				<td colspan="2" align="center" class="tfoot"><input type="submit" class="button" value="Post Reply" tabindex="2" accesskey="s" id="quick_reply_submit" /></td>
			</tr>
		</tbody>
	</table>
</form>
{{end}}{{if .ModOptions}}
<form action="moderation.php" method="post" style="margin-top: 0; margin-bottom: 0;" id="inlinemoderation_options">
<input type="hidden" name="my_post_key" value="{{.Key}}" />
<input type="hidden" name="tid" value="{{.TID}}" />
<span class="smalltext"><strong>Inline Post Moderation:</strong></span>
<select name="action" id="inlinemoderation_options_selector">
<option value="multideleteposts">Delete Posts</option>
<option value="multimergeposts">Merge Posts</option>
<option value="multisplitposts">Split Posts</option>
</select>
<input type="submit" class="button" name="go" value="Go (0)" id="inline_go" />
</form>{{end}}
{{end}}

{{define "newreply"}}
{{template "errors" .Errors}}
<form action="newreply.php?tid={{.TID}}&amp;processed=1" method="post" enctype="multipart/form-data" name="input">
<input type="hidden" name="my_post_key" value="{{.Key}}" />
<table border="0" cellspacing="0" cellpadding="5" class="tborder">
<tr>
<td class="thead" colspan="2"><strong>Post a New Reply</strong></td>
</tr>
<tr>
<td class="tcat" colspan="2"><span class="smalltext"><strong>Reply to thread: {{.Subject}}</strong></span></td>
</tr>
<tr>
<td class="trow1" width="20%"><strong>Username:</strong></td>
<td class="trow1">{{.Username}} <span class="smalltext">[<strong><a href="member.php?action=logout&amp;logoutkey={{.LogoutKey}}">change user</a></strong>]</span></td>
</tr>
<tr>
<td class="trow2" width="20%"><strong>Post Subject:</strong></td>
<td class="trow2"><input type="text" class="textbox" name="subject" size="40" maxlength="85" value="{{.PostSubject}}" tabindex="1" /></td>
</tr>
<tr>
<td class="trow2" valign="top"><strong>Your Message:</strong></td>
<td class="trow2">
<textarea id="message" name="message" rows="20" cols="70" tabindex="2" >{{.Message}}</textarea>
</td>
</tr>
<tr>
<td class="trow1" valign="top"><strong>Post Options:</strong></td>
<td class="trow1"><span class="smalltext">
<label><input type="checkbox" class="checkbox" name="postoptions[disablesmilies]" value="1" tabindex="9" /> <strong>Disable Smilies:</strong> disable smilies from showing in this post.</label>
</span></td>
</tr>{{if .ModOptions}}
<tr>
	<td class="trow2" valign="top"><strong>Moderator Options:</strong></td>
	<td class="trow2"><span class="smalltext">
		<label><input type="checkbox" class="checkbox" name="modoptions[closethread]" value="1" />&nbsp;<strong>Close Thread</strong>: prevent further posting in this thread.</label><br />
		<label><input type="checkbox" class="checkbox" name="modoptions[stickthread]" value="1" />&nbsp;<strong>Stick Thread:</strong> stick this thread to the top of the forum.</label>
	</span></td>
</tr>{{end}}
</table>
<br />
<table border="0" cellspacing="0" cellpadding="5" class="tborder">
<tr>
	<td class="thead" colspan="3"><strong>Attachments</strong></td>
</tr>
<tr>
	<td class="tcat smalltext" colspan="3">Your allocated attachment usage quota is Unlimited.  </td>
</tr>
<tr>
<td class="trow1" width="1"><img src="images/paperclip.png" alt="" /></td>
<td class="trow1" style="white-space: nowrap"><strong>New Attachment:</strong> <input type="file" name="attachments[]" size="30" class="fileupload" multiple="multiple" /></td>
<td class="trow1" style="white-space: nowrap" align="center"><input type="submit" class="button" name="newattachment" value="Add Attachment" tabindex="13" /></td>
</tr>
{{range .Attachments}}<tr id="attachment_{{.AID}}">
<td class="trow2" width="1" align="center"><img src="images/attachtypes/image.png" title="Image" border="0" alt=".png" /></td>
<td class="trow2" width="60%" style="white-space: nowrap"><span class="attachment_filename">{{.Filename}}</span> ({{.Size}})</td>
<td class="trow2" style="white-space: nowrap; text-align: center;"> <input type="submit" class="button" name="rem_{{.AID}}" value="Remove" /> <input type="button" class="button" name="insert" value="Insert Into Post" data-insert="[attachment={{.AID}}]" /></td>
</tr>
{{end}}</table>
<br />
<div align="center"><input type="submit" class="button" name="submit" value="Post Reply" tabindex="3" accesskey="s" /></div>
<input type="hidden" name="action" value="do_newreply" />
<input type="hidden" name="replyto" value="{{.ReplyTo}}" />
<input type="hidden" name="posthash" value="{{.PostHash}}" />
<input type="hidden" name="attachmentaid" value="" />
<input type="hidden" name="attachmentact" value="" />
<input type="hidden" name="quoted_ids" value="{{.QuotedIDs}}" />
<input type="hidden" name="tid" value="{{.TID}}" />

</form>
{{if .Review}}
<br />
<table border="0" cellspacing="0" cellpadding="5" class="tborder tfixed">
<tr>
<td class="thead" style="text-align: center;"><strong>Thread Review (Newest First)</strong></td>
</tr>
{{range $i, $p := .Review}}<tr>
<td class="tcat"><span class="smalltext"><strong>Posted by {{$p.Author}} - {{$p.Date}}</strong></span></td>
</tr>
<tr>
<td class="{{if $p.Even}}trow2{{else}}trow1{{end}} scaleimages">
{{$p.Body}}
</td>
</tr>
{{end}}</table>
{{end}}
{{end}}

{{define "newthread"}}
{{template "errors" .Errors}}
<form action="newthread.php?fid={{.FID}}&amp;processed=1" method="post" enctype="multipart/form-data" name="input">
<input type="hidden" name="my_post_key" value="{{.Key}}" />
<table border="0" cellspacing="0" cellpadding="5" class="tborder">
<tr>
<td class="thead" colspan="2"><strong>Post a New Thread</strong></td>
</tr>
<tr>
<td class="trow2" width="20%"><strong>Thread Subject:</strong></td>
<td class="trow2"><input type="text" class="textbox" name="subject" size="40" maxlength="85" value="{{.PostSubject}}" tabindex="1" /></td>
</tr>
<tr>
<td class="trow2" valign="top"><strong>Your Message:</strong></td>
<td class="trow2">
<textarea id="message" name="message" rows="20" cols="70" tabindex="2" >{{.Message}}</textarea>
</td>
</tr>
</table>
<br />
<div align="center"><input type="submit" class="button" name="submit" value="Post Thread" tabindex="4" accesskey="s" /></div>
<input type="hidden" name="action" value="do_newthread" />
<input type="hidden" name="posthash" value="{{.PostHash}}" />
<input type="hidden" name="attachmentaid" value="" />
<input type="hidden" name="attachmentact" value="" />
<input type="hidden" name="quoted_ids" value="" />
<input type="hidden" name="tid" value="0" />
</form>
{{end}}

{{define "editpost"}}
{{template "errors" .Errors}}
<form id="editpost" action="editpost.php?pid={{.PID}}&amp;processed=1" method="post" enctype="multipart/form-data" name="input">
<input type="hidden" name="my_post_key" value="{{.Key}}" />
<table border="0" cellspacing="0" cellpadding="5" class="tborder">
<tr>
<td class="thead" colspan="2"><strong>Edit This Post</strong></td>
</tr>
<tr>
<td class="trow1" width="20%"><strong>Username:</strong></td>
<td class="trow1">{{.Username}} <span class="smalltext">[<strong><a href="member.php?action=logout&amp;logoutkey={{.LogoutKey}}">change user</a></strong>]</span></td>
</tr>
<tr>
<td class="trow2"><strong>Subject:</strong></td>
<td class="trow2"><input type="text" class="textbox" name="subject" size="40" maxlength="85" value="{{.PostSubject}}" tabindex="1" /></td>
</tr>
<tr>
<td class="trow2" valign="top"><strong>Your Message:</strong></td>
<td class="trow2">
<textarea name="message" id="message" rows="20" cols="70" tabindex="3">{{.Message}}</textarea>
</td>
</tr>
<tr>
<td class="trow1"><strong>Edit Reason:</strong></td>
<td class="trow1"><input type="text" class="textbox" name="editreason" size="40" maxlength="150" value="{{.EditReason}}" tabindex="5" /></td>
</tr>
</table>
<br />
<div align="center"><input type="submit" class="button" name="submitbutton" value="Update Post" tabindex="3" accesskey="s" /></div>
<input type="hidden" name="action" value="do_editpost" />
<input type="hidden" name="attachmentaid" value="" />
<input type="hidden" name="attachmentact" value="" />
</form>
{{end}}

{{define "index"}}
<table border="0" cellspacing="0" cellpadding="5" class="tborder">
<thead>
<tr>
<td class="thead" colspan="5">
<div><strong><a href="forumdisplay.php?fid=1">My Category</a></strong><br /><div class="smalltext"></div></div>
</td>
</tr>
</thead>
<tbody style="" id="cat_1_e">
<tr>
<td class="tcat" colspan="2"><span class="smalltext"><strong>Forum</strong></span></td>
<td class="tcat" width="85" align="center" style="white-space: nowrap"><span class="smalltext"><strong>Threads</strong></span></td>
<td class="tcat" width="85" align="center" style="white-space: nowrap"><span class="smalltext"><strong>Posts</strong></span></td>
<td class="tcat" width="200" align="center"><span class="smalltext"><strong>Last Post</strong></span></td>
</tr>
{{range .Forums}}<tr>
<td class="{{.Row}}" align="center" width="1"><span class="forum_status forum_off" id="mark_read_{{.FID}}"></span></td>
<td class="{{.Row}}">
<strong><a href="forumdisplay.php?fid={{.FID}}">{{.Name}}</a></strong><div class="smalltext">{{.Description}}</div>
</td>
<td class="{{.Row}}" align="center" style="white-space: nowrap">{{.Threads}}</td>
<td class="{{.Row}}" align="center" style="white-space: nowrap">{{.Posts}}</td>
<td class="{{.Row}}" align="right" style="white-space: nowrap">{{if .Last}}
<span class="smalltext">
<a href="showthread.php?tid={{.Last.TID}}&amp;action=lastpost" title="{{.Last.Subject}}"><strong>{{.Last.Subject}}</strong></a>
<br />{{.LastDate}}<br />by <a href="{{$.BB}}/member.php?action=profile&amp;uid={{.Last.LastPosterUID}}">{{.Last.LastPoster}}</a></span>
{{else}}
<div style="text-align: center;">Never</div>
{{end}}</td>
</tr>
{{end}}</tbody>
</table>
<br />
{{end}}

{{define "forumdisplay"}}
<div class="float_left">
{{template "pagination" .Pagination}}</div>
{{if .CanPost}}<div class="float_right">
	<a href="newthread.php?fid={{.FID}}" class="button new_thread_button"><span>Post Thread</span></a>
</div>
{{end}}<table border="0" cellspacing="0" cellpadding="5" class="tborder clear">
	<tr>
		<td class="thead" colspan="6">
			<div class="float_right">
				<span class="smalltext"><strong><a href="misc.php?action=markread&amp;fid={{.FID}}">Mark this forum read</a></strong></span>
			</div>
			<div>
				<strong>{{.Name}}</strong>
			</div>
		</td>
	</tr>
	<tr>
		<td class="tcat" colspan="3" width="66%"><span class="smalltext"><strong><a href="forumdisplay.php?fid={{.FID}}&amp;datecut=9999&amp;prefix=0&amp;sortby=subject&amp;order=asc">Thread</a>  / <a href="forumdisplay.php?fid={{.FID}}&amp;datecut=9999&amp;prefix=0&amp;sortby=starter&amp;order=asc">Author</a> </strong></span></td>
		<td class="tcat" align="center" width="7%"><span class="smalltext"><strong><a href="forumdisplay.php?fid={{.FID}}&amp;datecut=9999&amp;prefix=0&amp;sortby=replies&amp;order=desc">Replies</a> </strong></span></td>
		<td class="tcat" align="center" width="7%"><span class="smalltext"><strong><a href="forumdisplay.php?fid={{.FID}}&amp;datecut=9999&amp;prefix=0&amp;sortby=views&amp;order=desc">Views</a> </strong></span></td>
		<td class="tcat" align="right" width="20%"><span class="smalltext"><strong><a href="forumdisplay.php?fid={{.FID}}&amp;datecut=9999&amp;prefix=0&amp;sortby=lastpost&amp;order=desc">Last Post</a> </strong></span></td>
	</tr>
{{range .Threads}}{{if .Sep}}<tr>
<td class="trow_sep" colspan="6">{{.Sep}}</td>
</tr>
{{end}}<tr class="inline_row">
	<td align="center" class="{{.Row}} {{.Kind}}" width="2%"><span class="thread_status folder" title="No new posts.">&nbsp;</span></td>
	<td align="center" class="{{.Row}} {{.Kind}}" width="2%">&nbsp;</td>
	<td class="{{.Row}} {{.Kind}}">
		<div>
          <span> <span class=" subject_old" id="tid_{{.T.TID}}"><a href="showthread.php?tid={{.T.TID}}">{{.T.Subject}}</a></span>{{if .PageLinks}}
 <span class="smalltext">(Pages: {{range .PageLinks}}
<a href="{{.URL}}">{{.N}}</a> {{end}}
)</span>{{end}}</span>
			<div><span class="author smalltext"><a href="{{$.BB}}/member.php?action=profile&amp;uid={{.T.UID}}">{{.T.Author}}</a>, </span><span class="thread_start_datetime smalltext">{{.Started}}</span></div>
		</div>
	</td>
	<td align="center" class="{{.Row}} {{.Kind}}"><a href="{{$.BB}}/misc.php?action=whoposted&tid={{.T.TID}}" onclick="MyBB.whoPosted({{.T.TID}}); return false;">{{.Replies}}</a></td>
	<td align="center" class="{{.Row}} {{.Kind}}">{{.T.Views}}</td>
	<td class="{{.Row}} {{.Kind}}" style="white-space: nowrap; text-align: right;">
		<span class="lastpost smalltext">{{.LastDate}}<br />
		<a href="showthread.php?tid={{.T.TID}}&amp;action=lastpost">Last Post</a>: <a href="{{$.BB}}/member.php?action=profile&amp;uid={{.T.LastPosterUID}}">{{.T.LastPoster}}</a></span>
	</td>
</tr>
{{else}}<tr>
<td colspan="6" class="trow1">Sorry, but there are currently no threads in this forum with the specified date and time limiting options.</td>
</tr>
{{end}}</table>
<div class="float_left">
{{template "pagination" .Pagination}}</div>
{{end}}

{{define "pmnav"}}<td width="180" valign="top">
<table border="0" cellspacing="0" cellpadding="5" class="tborder">
<tbody>
	<tr>
		<td class="thead"><strong>Menu</strong></td>
	</tr>
<tr><td class="trow1 smalltext"><a href="private.php?action=send" class="usercp_nav_item usercp_nav_composepm">Compose</a></td></tr>
	<tr>
		<td class="trow1 smalltext">
<div><a href="private.php?fid=0" class="usercp_nav_item usercp_nav_pmfolder">Inbox</a></div>
<div><a href="private.php?fid=1" class="usercp_nav_item usercp_nav_sub_pmfolder">Unread</a></div>
<div><a href="private.php?fid=2" class="usercp_nav_item usercp_nav_sub_pmfolder">Sent Items</a></div>
		</td>
	</tr>
</tbody>
</table>
</td>
{{end}}

{{define "pmfolder"}}<table width="100%" border="0" align="center">
<tr>
{{template "pmnav" .}}<td valign="top">
<fieldset>
<span class="smalltext"><a href="private.php">Inbox</a>
 | <a href="private.php?action=send">Compose Message</a>
</span>
</fieldset>
<br />

<form action="private.php" method="post" name="pmForm">
<input type="hidden" name="my_post_key" value="{{.Key}}" />
<table border="0" cellspacing="0" cellpadding="5" class="tborder">
<tr>
<td class="thead" colspan="6">
	<strong>{{.FolderName}}</strong></td>
</tr>
<tr>
<td class="tcat" align="center" colspan="3"><span class="smalltext"><strong><a href="private.php?fid={{.FID}}&amp;sortby=subject&amp;order=asc">Message Title</a> </strong></span></td>
<td class="tcat" align="center" width="30%" style="white-space: nowrap"><span class="smalltext"><strong><a href="private.php?fid={{.FID}}&amp;sortby=username&amp;order=asc">{{if .Sent}}Sent To{{else}}Sender{{end}}</a> </strong></span></td>
<td class="tcat" align="right"  width="20%" style="white-space: nowrap"><span class="smalltext"><strong><a href="private.php?fid={{.FID}}&amp;sortby=dateline&amp;order=desc">Date/Time Sent</a> </strong></span></td>
<td class="tcat" align="center" width="1%" style="white-space: nowrap"><span class="smalltext"><input name="allbox" title="Check All" type="checkbox" class="checkbox checkall" value="Check All" /></span></td>
</tr>
{{range .Messages}}<tr>
	<td class="trow1" align="center" width="2%">{{if .New}}<img src="{{$.BB}}/images/new_pm.png" alt="New Message" title="New Message" />{{else}}<img src="{{$.BB}}/images/old_pm.png" alt="Old Message" title="Old Message" />{{end}}</td>
	<td class="trow1" align="center" width="2%">&#009;</td>
	<td class="trow1" width="35%"><a class="{{if .New}}new_pm{{else}}old_pm{{end}}" href="private.php?action=read&amp;pmid={{.M.PMID}}">{{.M.Subject}}</a></td>
	<td class="trow1" align="center"><a href="{{$.BB}}/member.php?action=profile&amp;uid={{.OtherUID}}">{{.Other}}</a></td>
	<td class="trow1" align="right" style="white-space: nowrap"><span class="smalltext">{{.Date}}</span></td>
	<td class="trow1" align="center" width="2%"><input type="checkbox" class="checkbox" name="check[{{.M.PMID}}]" value="1" /></td>
</tr>
{{else}}<tr>
<td class="trow1" colspan="6" align="center">There are no messages in this folder.</td>
</tr>
{{end}}</table>
<input type="hidden" name="action" value="do_stuff" />
</form>
</td>
</tr>
</table>
{{end}}

{{define "pmread"}}<table width="100%" border="0" align="center">
<tr>
{{template "pmnav" .}}<td style="vertical-align: top;">
<table border="0" cellspacing="0" cellpadding="5" class="tborder tfixed clear no_bottom_border">
<tr>
<td class="thead">
<strong>{{.Subject}}</strong>
</td>
</tr>

<tr><td id="posts_container">
<div id="posts">
{{template "postbit" .Post}}
</div>
</td></tr>
</table>
{{if .ReplyTo}}
<br />
<form action="private.php" method="post" name="input">
	<input type="hidden" name="my_post_key" value="{{.Key}}" />
	<input type="hidden" name="to" value="{{.ReplyTo}}" />
	<input type="hidden" name="bcc" value="" />
	<input type="hidden" name="subject" value="Re: {{.Subject}}" />
	<input type="hidden" name="action" value="do_send" />
	<input type="hidden" name="pmid" value="{{.PMID}}" />
	<input type="hidden" name="do" value="reply" />
	<table border="0" cellspacing="0" cellpadding="5" class="tborder">
		<thead>
			<tr>
				<td class="thead" colspan="2">
					<div><strong>Quick Reply</strong></div>
				</td>
			</tr>
		</thead>
		<tbody style="" id="quickreply_e">
			<tr>
              <td class="trow1" valign="top" width="22%">
					<strong>Message</strong><br />
					<span class="smalltext">Type your reply to this message here.<br /><br />
					<label><input type="checkbox" class="checkbox" name="options[savecopy]" value="1" checked="checked" />&nbsp;<strong>Save a Copy</strong></label></span>
				</td>
				<td class="trow1">
					<div style="width: 95%">
						<textarea style="width: 100%; padding: 4px; margin: 0;" rows="8" cols="80" name="message" id="message" tabindex="1">{{.QuoteText}}</textarea>
					</div>
				</td>
			</tr>
			<tr>
				<td colspan="2" align="center" class="tfoot"><input type="submit" class="button" value="Send Message" tabindex="2" accesskey="s" /></td>
			</tr>
		</tbody>
	</table>
</form>
{{end}}</td>
</tr>
</table>
{{end}}

{{define "pmcompose"}}
<form action="private.php" method="post" name="input">
<input type="hidden" name="my_post_key" value="{{.Key}}" />
<table width="100%" border="0" align="center">
<tr>
{{template "pmnav" .}}<td valign="top">
{{template "errors" .Errors}}
<table border="0" cellspacing="0" cellpadding="5" class="tborder">
<tr>
<td class="thead" colspan="2"><strong>Compose a Private Message</strong></td>
</tr>
<tr>
<td class="trow1" valign="top" width="200"><strong>Recipients:</strong>
	<br /><span class="smalltext">Separate multiple user names with a comma.</span></td>
<td class="trow1" valign="top"><textarea name="to" id="to" rows="2" cols="38" tabindex="1" style="width: 450px;">{{.To}}</textarea><br />You may send this message to a maximum of <strong>5</strong> people.</td>
</tr>
<tr id="bcc_area">
<td class="trow2" valign="top"><strong>BCC:</strong></td>
<td class="trow2"><textarea name="bcc" id="bcc" rows="2" cols="38" tabindex="1" style="width: 450px;"></textarea></td>
</tr>
<tr>
<td class="trow1"><strong>Subject:</strong></td>
<td class="trow1"><input type="text" class="textbox" name="subject" size="40" maxlength="85" value="{{.PMSubject}}" tabindex="3" /></td>
</tr>
<tr>
<td class="trow2" valign="top"><strong>Message:</strong></td>
<td class="trow2">
<textarea name="message" id="message" rows="20" cols="70" tabindex="4">{{.Message}}</textarea>
</td>
</tr>
<tr>
<td class="trow1" valign="top"><strong>Options:</strong></td>
<td class="trow1"><span class="smalltext">
<label><input type="checkbox" class="checkbox" name="options[disablesmilies]" value="1" tabindex="6"  /><strong>Disable Smilies:</strong> disable smilies from showing in this message.</label><br />
<label><input type="checkbox" class="checkbox" name="options[savecopy]" value="1" tabindex="7" checked="checked" /><strong>Save a Copy:</strong> save a copy of this message in your Sent Items folder.</label>
</span></td>
</tr>
</table>
<br />
<input type="hidden" name="action" value="do_send" />
<input type="hidden" name="pmid" value="{{.PMID}}" />
<input type="hidden" name="do" value="{{.Do}}" />
<div style="text-align: center;">
<input type="submit" class="button" name="submit" value="Send Message" tabindex="9" accesskey="s" />
</div>
</td>
</tr>
</table>
</form>
{{end}}
`
