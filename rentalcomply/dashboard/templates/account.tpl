% rebase('layout.tpl')
<div class="head"><h1>{{_('Account')}}</h1></div>
<section class="card" aria-labelledby="account-name-title">
  <h2 id="account-name-title">{{_('Account name')}}</h2>
  <form method="post" action="/dashboard/settings/account/name" class="row-form">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <div class="field"><label for="account-name">{{_('Account name')}}</label>
    <input id="account-name" name="name" value="{{account_name}}" required maxlength="200" aria-describedby="account-name-hint{{' account-name-error' if 'name' in errors else ''}}"{{!' aria-invalid="true"' if 'name' in errors else ''}}>
    <p class="hint" id="account-name-hint">{{_('Invitations, the morning e-mail, police alerts and the choice of account at sign-in call the account by this name; the command line accepts it as --account.')}}</p>
    % if 'name' in errors:
    <p class="field-error" id="account-name-error">{{_(errors['name'])}}</p>
    % end
    </div>
    <div class="actions"><button type="submit" class="primary">{{_('Save changes')}}</button></div>
  </form>
</section>
<section class="card" aria-labelledby="email-link">
  <h2 id="email-link">{{_('E-mail')}}</h2>
  <p class="muted">{{_('The mail server, the host contact in guests’ e-mails, the reminder schedule and a test e-mail.')}}</p>
  <p><a class="button" href="/dashboard/settings/email">{{_('Set up e-mail')}}</a></p>
</section>
<section class="card" aria-labelledby="tz">
  <h2 id="tz">{{_('Time zone')}}</h2>
  <p class="muted">{{_('Times that belong to no property (activity, deliveries, keys, reports) are shown in this zone; a booking’s and a property’s times in the property’s own zone.')}}</p>
  <form method="post" action="/dashboard/settings/account/timezone" class="row-form">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <div class="field"><label for="timezone">{{_('Time zone')}}</label>
    <input id="timezone" name="timezone" list="zones" value="{{timezone}}" required aria-describedby="timezone-hint{{' timezone-error' if 'timezone' in errors else ''}}"{{!' aria-invalid="true"' if 'timezone' in errors else ''}}>
    <datalist id="zones">
    % for z in zones:
      <option value="{{z}}">
    % end
    </datalist>
    <p class="hint" id="timezone-hint">{{_('Like Europe/Athens.')}} {{_('Now')}}: {{fmt.datetime(now)}}</p>
    % if 'timezone' in errors:
    <p class="field-error" id="timezone-error">{{_(errors['timezone'])}}</p>
    % end
    </div>
    <div class="actions"><button type="submit" class="primary">{{_('Save changes')}}</button></div>
  </form>
</section>
<section class="card" aria-labelledby="morning">
  <h2 id="morning">{{_('Morning e-mail')}}</h2>
  <p class="muted">{{_('Every morning at {hour}, account time, each owner gets an e-mail listing what needs a person today (as on Today), only when something does.', hour='%02d:00' % morning_hour)}}</p>
  % if not morning_server_on:
  <p class="hint">{{_('The administrator of the server has turned the morning e-mail off (dashboard.morning_email).')}}</p>
  % end
  <form method="post" action="/dashboard/settings/account/morning-email" class="row-form">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <label class="check"><input type="checkbox" name="morning_email" value="on"{{!' checked' if morning_email else ''}}> {{_('Send the owners the morning e-mail')}}</label>
    <div class="actions"><button type="submit">{{_('Save changes')}}</button></div>
  </form>
</section>
% include('_controller.tpl')
% include('_scan_keeping.tpl')
% include('_code_tables.tpl')
% include('_people.tpl')
% include('_devices.tpl')
