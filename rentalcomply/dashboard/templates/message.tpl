% rebase('layout.tpl')
<div class="head"><p class="crumbs"><a href="/dashboard/settings/email">{{_('E-mail')}}</a></p><h1>{{_('kind:' + kind)}} · {{language}}</h1></div>
% if broken:
<p class="notice warn" role="status" id="template-broken">{{_('Your saved text breaks the placeholder rules, so guests receive the default text instead. Correct it and save it again, or reset it.')}}</p>
% end
<section class="card" aria-labelledby="text">
  <h2 id="text">{{_('Your text') if own else _('The default text')}}</h2>
  <p class="muted">{{_('Placeholders, replaced for each guest:')}} <span class="mono">{{' '.join('{' + p + '}' for p in placeholders)}}</span></p>
  <form method="post" action="/dashboard/settings/email/messages/{{kind}}/{{lang}}" class="row-form">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <div class="field"><label for="subject">{{_('Subject')}}</label>
    <input id="subject" name="subject" value="{{subject}}" maxlength="200" required{{!' aria-invalid="true" aria-describedby="subject-error"' if 'subject' in errors else ''}}>
    % if 'subject' in errors:
    <p class="field-error" id="subject-error">{{_(errors['subject'])}}</p>
    % end
    </div>
    <div class="field"><label for="body">{{_('Text')}}</label>
    <textarea id="body" name="body" rows="16" required{{!' aria-invalid="true" aria-describedby="body-error"' if 'body' in errors else ''}}>{{body}}</textarea>
    % if 'body' in errors:
    <p class="field-error" id="body-error">{{_(errors['body'])}}</p>
    % end
    </div>
    <div class="actions">
      <button type="submit" name="action" value="save" class="primary">{{_('Save changes')}}</button>
      <button type="submit" name="action" value="preview">{{_('Preview')}}</button>
    </div>
  </form>
  % if own:
  <form method="post" action="/dashboard/settings/email/messages/{{kind}}/{{lang}}/reset" class="row-form">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <div class="actions"><button type="submit">{{_('Reset to the default text')}}</button></div>
  </form>
  % end
</section>
% if preview:
<section class="card wrap" aria-labelledby="preview" id="message-preview">
  <h2 id="preview">{{_('Preview')}}</h2>
  <p><strong>{{preview[0]}}</strong></p>
  % for paragraph in preview[1].split('\n\n'):
  <p>
    % for line in paragraph.splitlines():
    {{line}}<br>
    % end
  </p>
  % end
</section>
% end
