% for note in obligation_notes:
<div class="notice warn" role="status" id="obligation-note"><p>{{_(note)}}</p></div>
% end
% for o in obligations:
<section class="card" aria-labelledby="obligation-{{o['authority']}}">
  <h2 id="obligation-{{o['authority']}}">{{_(o['title'])}}</h2>
  % if o['missing']:
  <div class="notice warn" role="status"><p>{{_('Nothing can be filed until these are set:')}} {{', '.join(_(f.label) for f in o['fields'] if f.name in o['missing'])}}. {{_('Each month is kept ready, held, and goes out as soon as the set-up is complete.')}}</p></div>
  % end
  % if not o['fields']:
  <p class="muted">{{_('Each period’s figures are made ready once it ends (the Filings page): type them into the authority’s portal, then mark the filing filed.')}}</p>
  % else:
  <p class="muted">{{_('Each month is filed after it ends. Without the transmission user and password, the month’s file is made for you to upload or type in, then mark filed.')}}</p>
  <form method="post" action="/dashboard/properties/{{prop.id}}/obligations/{{o['authority']}}#obligation-{{o['authority']}}" class="stack" autocomplete="off">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <div class="grid">
    % for f in o['fields']:
    %   error = o['errors'].get(f.name)
    %   masked = f.secret and not f.shown
    %   field_id = 'obligation-' + o['authority'] + '-' + f.name
    <div class="field">
      <label for="{{field_id}}">{{_(f.label)}}{{!' <span class="req" aria-hidden="true">*</span>' if f.required else ''}}</label>
      % if masked:
      <input id="{{field_id}}" name="{{f.name}}" type="password" autocomplete="new-password" maxlength="200" value="" aria-describedby="{{field_id}}-hint"{{!' aria-invalid="true"' if error else ''}}>
      <p class="hint" id="{{field_id}}-hint"><span class="badge {{'s-ok' if f.name in o['credentials_set'] else 's-pending'}}">{{_('Set') if f.name in o['credentials_set'] else _('Not set')}}</span> {{_(f.hint) if f.hint else ''}}</p>
      % else:
      <input id="{{field_id}}" name="{{f.name}}" maxlength="200" value="{{o['values'].get(f.name) or ''}}"{{!' aria-describedby="%s-hint"' % field_id if f.hint else ''}}{{!' aria-invalid="true"' if error else ''}}>
      % if f.hint:
      <p class="hint" id="{{field_id}}-hint">{{_(f.hint)}}</p>
      % end
      % end
      % if error:
      <p class="field-error" id="{{field_id}}-error">{{_(error)}}</p>
      % end
    </div>
    % end
    </div>
    <div class="actions"><button type="submit" class="primary">{{_('Save this set-up')}}</button></div>
  </form>
  % end
</section>
% end
