<section class="card" aria-labelledby="people">
  <h2 id="people">{{_('People')}}</h2>
  % if invite_errors.get('status') or invite_errors.get('role_change'):
  <p class="notice error" role="alert">{{_(invite_errors.get('status') or invite_errors.get('role_change'))}}</p>
  % end
  <table class="list">
    <thead><tr><th scope="col">{{_('E-mail address')}}</th><th scope="col">{{_('Role')}}</th><th scope="col">{{_('Status')}}</th><th scope="col">{{_('Last sign-in')}}</th><th scope="col"><span class="visually-hidden">{{_('Actions')}}</span></th></tr></thead>
    <tbody>
    % for u in people:
    <tr id="{{u.id}}">
      <td data-label="{{_('E-mail address')}}">{{u.email or _('(chosen on the link’s page)')}}{{!' <span class="badge">' + _('you') + '</span>' if u.id == page.user.id else ''}}</td>
      <td data-label="{{_('Role')}}">
        % if u.id == page.user.id:
        {{_('role:' + u.role)}}
        % else:
        <form method="post" action="/dashboard/settings/account/people/{{u.id}}/role" class="inline">
          <input type="hidden" name="csrf" value="{{page.csrf}}">
          <label for="role-{{u.id}}" class="visually-hidden">{{_('Role of {email}', email=u.email or '—')}}</label>
          <select id="role-{{u.id}}" name="role" class="small">
          % for r in ('owner', 'member'):
            <option value="{{r}}"{{!' selected' if r == u.role else ''}}>{{_('role:' + r)}}</option>
          % end
          </select>
          <button type="submit" class="small">{{_('Change')}}</button>
        </form>
        % end
      </td>
      <td data-label="{{_('Status')}}"><span class="badge s-{{u.status}}">{{fmt.status(u.status)}}</span>{{!'' if u.password_hash else ' <span class="small muted">' + _('invited, no password yet') + '</span>'}}</td>
      <td data-label="{{_('Last sign-in')}}">{{fmt.datetime(u.last_sign_in_at) if u.last_sign_in_at else _('never')}}</td>
      <td class="actions-cell">
        % if u.id != page.user.id:
        <form method="post" action="/dashboard/settings/account/people/{{u.id}}/status" class="inline">
          <input type="hidden" name="csrf" value="{{page.csrf}}">
          <input type="hidden" name="status" value="{{'disabled' if u.status == 'active' else 'active'}}">
          <button type="submit" class="small{{' danger' if u.status == 'active' else ''}}" aria-label="{{(_('Disable {email}') if u.status == 'active' else _('Enable {email}')).format(email=u.email or '—')}}">{{_('Disable') if u.status == 'active' else _('Enable')}}</button>
        </form>
        % if u.status == 'active' and u.email:
        <form method="post" action="/dashboard/settings/account/people/{{u.id}}/link" class="inline">
          <input type="hidden" name="csrf" value="{{page.csrf}}">
          <button type="submit" class="small">{{_('E-mail a new password link')}}</button>
        </form>
        % end
        % end
      </td>
    </tr>
    % end
    </tbody>
  </table>
  <h3 id="invite">{{_('Invite a colleague')}}</h3>
  <p class="muted">{{_('An owner does everything; a member works with bookings, properties and reports but cannot manage API keys, webhooks or people. The colleague gets a one-time link by e-mail to choose a password.')}}</p>
  <form method="post" action="/dashboard/settings/account/people" class="row-form">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <div class="field"><label for="invite-email">{{_('E-mail address')}}</label>
    <input id="invite-email" name="email" type="email" required value="{{invite['email']}}"{{!' aria-invalid="true" aria-describedby="invite-email-error"' if 'email' in invite_errors else ''}}>
    % if 'email' in invite_errors:
    <p class="field-error" id="invite-email-error">{{_(invite_errors['email'])}}</p>
    % end
    </div>
    <div class="field"><label for="invite-role">{{_('Role')}}</label>
    <select id="invite-role" name="role">
    % for r in ('member', 'owner'):
      <option value="{{r}}"{{!' selected' if r == invite['role'] else ''}}>{{_('role:' + r)}}</option>
    % end
    </select></div>
    <div class="actions"><button type="submit" class="primary">{{_('Send the invitation')}}</button></div>
  </form>
</section>
