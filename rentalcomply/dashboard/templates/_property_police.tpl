% if police['fields']:
<section class="card" aria-labelledby="police-setup">
  <h2 id="police-setup">{{_('Police filing set-up')}} · {{police['title']}}</h2>
  % if police['missing']:
  <div class="notice warn" role="status"><p>{{_('Police filing is on, but nothing can be sent until these are set:')}} {{', '.join(_(f.label) for f in police['missing'])}}. {{_('Guests’ registrations wait, held, and go out as soon as the set-up is complete.')}}</p></div>
  % end
  % answer = police['connection']
  % if answer:
  <div class="notice {{'ok' if answer.verdict == 'connected' else 'error'}}" role="status" id="connection-answer"><p>{{_('test:' + answer.verdict, authority=police['title'])}}</p></div>
  % end
  <p class="muted">{{_('What the authority gave you when you registered. Passwords and keys are kept encrypted and never shown again: leave a box empty to keep what is set.')}}</p>
  % if police['not_kept']:
  <div class="notice warn" role="status" id="police-retype"><p>{{_('Nothing was saved. The other boxes keep what you typed; passwords and keys are never kept: type them again.')}}</p></div>
  % end
  <form method="post" action="/dashboard/properties/{{prop.id}}/police#police-setup" class="stack" autocomplete="off">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <div class="grid">
    % for f in police['fields']:
    %   error = police['errors'].get(f.name)
    %   masked = f.secret and not f.shown
    %   retype = masked and f.name in police['not_kept']
    %   described = ' '.join(filter(None, [('police-' + f.name + '-hint') if (f.hint or masked) else '', ('police-' + f.name + '-retype') if retype else '', ('police-' + f.name + '-error') if error else '']))
    <div class="field">
      <label for="police-{{f.name}}">{{_(f.label)}}{{!' <span class="req" aria-hidden="true">*</span>' if f.required else ''}}</label>
      % if masked:
      <input id="police-{{f.name}}" name="{{f.name}}" type="password" autocomplete="new-password" maxlength="200" value=""{{!' aria-describedby="%s"' % described if described else ''}}{{!' aria-invalid="true"' if error else ''}}>
      <p class="hint" id="police-{{f.name}}-hint"><span class="badge {{'s-ok' if f.name in police['credentials_set'] else 's-pending'}}">{{_('Set') if f.name in police['credentials_set'] else _('Not set')}}</span> {{_(f.hint) if f.hint else ''}}</p>
      % if retype:
      <p class="field-warn" id="police-{{f.name}}-retype">{{_('What you typed here was not kept, as a password never is: type it again.')}}</p>
      % end
      % else:
      <input id="police-{{f.name}}" name="{{f.name}}" maxlength="200" value="{{police['values'].get(f.name) or ''}}"{{!' autocomplete="username" spellcheck="false"' if f.secret else ''}}{{!' aria-describedby="%s"' % described if described else ''}}{{!' aria-invalid="true"' if error else ''}}>
      % if f.hint:
      <p class="hint" id="police-{{f.name}}-hint">{{_(f.hint)}}</p>
      % end
      % end
      % if error:
      <p class="field-error" id="police-{{f.name}}-error">{{_(error)}}</p>
      % end
    </div>
    % end
    </div>
    <div class="actions"><button type="submit" class="primary">{{_('Save the police set-up')}}</button></div>
  </form>
  % if police.get('testable', True):
  <form method="post" action="/dashboard/properties/{{prop.id}}/police/test#police-setup" class="inline">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <button type="submit" id="test-connection">{{_('Test the connection')}}</button>
  </form>
  <p class="hint">{{_('Asks the authority whether it accepts these details. Nothing is filed.')}}</p>
  % end
</section>
% end
