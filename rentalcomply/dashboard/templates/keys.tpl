% rebase('layout.tpl')
<div class="head"><h1>{{_('API keys')}}</h1><p class="muted">{{_('Keys let your other programs use the RentalComply API. Each key is shown once, when it is made.')}}</p></div>
% if errors:
<div class="notice error" role="alert">
  % for field, message in errors.items():
  <p>{{_(field)}}: {{_(message)}}</p>
  % end
</div>
% end
<section class="card">
% if not keys:
<p class="empty">{{_('No API keys.')}}</p>
% else:
<table class="list">
  <thead><tr><th scope="col">{{_('Name')}}</th><th scope="col">{{_('Key')}}</th><th scope="col">{{_('Scopes')}}</th><th scope="col">{{_('Last used')}}</th><th scope="col">{{_('Expires')}}</th><th scope="col">{{_('Status')}}</th><th scope="col"><span class="visually-hidden">{{_('Actions')}}</span></th></tr></thead>
  <tbody>
  % for k in keys:
  % state = 'revoked' if k.revoked_at else ('active' if usable(k) else 'expired')
  <tr id="{{k.id}}">
    <td data-label="{{_('Name')}}">{{k.name or '—'}}</td>
    <td data-label="{{_('Key')}}" class="mono">{{k.key_hint}}…</td>
    <td data-label="{{_('Scopes')}}">{{', '.join(_(s) for s in k.scopes.split())}}</td>
    <td data-label="{{_('Last used')}}">{{fmt.datetime(k.last_used_at) if k.last_used_at else _('never')}}</td>
    <td data-label="{{_('Expires')}}">{{fmt.datetime(k.expires_at) if k.expires_at else _('never')}}</td>
    <td data-label="{{_('Status')}}"><span class="badge s-{{state}}">{{fmt.status(state)}}</span></td>
    <td class="actions-cell">
      % if state == 'active':
      <form method="post" action="/dashboard/settings/keys/{{k.id}}/rotate" class="inline rotate">
        <input type="hidden" name="csrf" value="{{page.csrf}}">
        <label for="grace-{{k.id}}" class="visually-hidden">{{_('The old key keeps working for')}}</label>
        <select id="grace-{{k.id}}" name="grace_hours" class="small">
          % for g in grace_choices:
          <option value="{{g}}"{{!' selected' if g == 24 else ''}}>{{_('old key stops now') if g == 0 else _('old key works {hours} h more', hours=g)}}</option>
          % end
        </select>
        <button type="submit" class="small">{{_('Rotate')}}</button>
      </form>
      <form method="post" action="/dashboard/settings/keys/{{k.id}}/revoke" class="inline">
        <input type="hidden" name="csrf" value="{{page.csrf}}">
        <button type="submit" class="danger small" aria-label="{{_('Revoke key {name}', name=k.name or k.key_hint)}}">{{_('Revoke')}}</button>
      </form>
      % end
    </td>
  </tr>
  % end
  </tbody>
</table>
% end
</section>
<section class="card" aria-labelledby="new-key">
  <h2 id="new-key">{{_('Create a key')}}</h2>
  <form method="post" action="/dashboard/settings/keys" class="stack">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <div class="grid">
    <div class="field"><label for="name">{{_('Name')}}</label>
    <input id="name" name="name" required maxlength="200" value="{{values['name']}}" aria-describedby="name-hint"{{!' aria-invalid="true"' if 'name' in errors else ''}}>
    <p class="hint" id="name-hint">{{_('Which program uses it, like “accounting export”.')}}</p></div>
    <fieldset class="field"><legend>{{_('Scopes')}}</legend>
      % for s in scopes:
      <label class="check"><input type="checkbox" name="scopes" value="{{s}}"{{!' checked' if s in values['scopes'] else ''}}> {{_(s)}} <span class="hint">{{_('scope:' + s)}}</span></label>
      % end
    </fieldset>
    <div class="field"><label for="expires_in_days">{{_('Expires after (days)')}}</label>
    <input id="expires_in_days" name="expires_in_days" type="number" min="1" max="3650" value="{{values['expires']}}" aria-describedby="expires-hint"{{!' aria-invalid="true"' if 'expires_in_days' in errors else ''}}>
    <p class="hint" id="expires-hint">{{_('Empty: never.')}}</p></div>
    </div>
    <div class="actions"><button type="submit" class="primary">{{_('Create key')}}</button></div>
  </form>
</section>
