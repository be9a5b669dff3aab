% rebase('layout.tpl')
% def field(name, label, kind='text', hint='', required=False, extra=''):
<div class="field"><label for="{{name}}">{{label}}</label>
<input id="{{name}}" name="{{name}}" type="{{kind}}" value="{{values.get(name, '')}}"{{!' required' if required else ''}}{{!extra}}{{!' aria-invalid="true" aria-describedby="%s-error"' % name if name in errors else ''}}>
% if hint:
<p class="hint">{{hint}}</p>
% end
% if name in errors:
<p class="field-error" id="{{name}}-error">{{_(errors[name])}}</p>
% end
</div>
% end
<div class="head"><p class="crumbs"><a href="/dashboard/settings/account">{{_('Account')}}</a></p><h1>{{_('E-mail')}}</h1></div>
% if test:
  % if test['sent']:
<p class="notice ok" role="status" id="test-result">{{_('The test e-mail to {to} was accepted by {server}. Look for it in that mailbox (and its spam folder).', to=test['to'], server=test['words'])}}</p>
  % else:
  % from rentalcomply.dashboard import problems
<p class="notice error" role="alert" id="test-result">{{_('The test e-mail to {to} was not sent.', to=test['to'])}} {{_(problems.mail(test['words']))}}</p>
  % end
% end
<section class="card" aria-labelledby="smtp">
  <h2 id="smtp">{{_('Mail server')}}</h2>
  <p class="muted">{{_('Every e-mail of this account goes through this server: check-in links, reminders, access instructions, password links and the morning e-mail.')}}</p>
  % if smtp['source'] == 'config':
  <p class="hint" id="smtp-source">{{_('Now: the server settings of config.toml ({server}, from {sender}).', server='%s:%s' % (smtp['effective_host'], smtp['effective_port']), sender=smtp['effective_from'])}}{{(' ' + _('These are the defaults: nothing is sent until a mail server is set up here.')) if not smtp['set_up'] else ''}}</p>
  % end
  <form method="post" action="/dashboard/settings/email/smtp" class="row-form" autocomplete="off">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    % field('host', _('Server'), hint=_('Like smtp.example.com: your mail provider gives it.'), required=True)
    % field('port', _('Port'), kind='number', hint=_('587 for STARTTLS, 465 for TLS.'), required=True, extra=' min="1" max="65535"')
    <div class="field"><label for="security">{{_('Security')}}</label>
    <select id="security" name="security">
      % for code, label in (('starttls', 'STARTTLS'), ('tls', 'TLS'), ('none', _('none (not encrypted)'))):
      <option value="{{code}}"{{!' selected' if values.get('security') == code else ''}}>{{label}}</option>
      % end
    </select>
    % if 'security' in errors:
    <p class="field-error">{{_(errors['security'])}}</p>
    % end
    </div>
    % field('username', _('User name'), hint=_('Empty when the server asks for no login.'))
    <div class="field"><label for="password">{{_('Password')}}</label>
    <input id="password" name="password" type="password" value="" autocomplete="new-password">
    <p class="hint">{{_('A password is stored: leave empty to keep it.') if smtp['password_stored'] else _('Stored encrypted and never shown again.')}}</p>
    % if 'password' in errors:
    <p class="field-error">{{_(errors['password'])}}</p>
    % end
    </div>
    % field('from_address', _('Sender'), hint=_('The sender guests see, like Villa Anemoi <stay@example.com>.'), required=True)
    <div class="actions"><button type="submit" class="primary">{{_('Save changes')}}</button></div>
  </form>
  % if smtp['own']:
  <form method="post" action="/dashboard/settings/email/smtp" class="row-form">
    <input type="hidden" name="csrf" value="{{page.csrf}}"><input type="hidden" name="use_config" value="on">
    <div class="actions"><button type="submit">{{_('Use the server settings of config.toml instead')}}</button></div>
  </form>
  % end
</section>
<section class="card" aria-labelledby="test">
  <h2 id="test">{{_('Send a test e-mail')}}</h2>
  <form method="post" action="/dashboard/settings/email/test" class="row-form">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    % field('test_to', _('Send it to'), kind='email', required=True)
    <div class="actions"><button type="submit">{{_('Send a test e-mail')}}</button></div>
  </form>
</section>
<section class="card" aria-labelledby="contact">
  <h2 id="contact">{{_('Host contact')}}</h2>
  <p class="muted">{{_('In every e-mail to a guest (their replies go to this address) and on the check-in page once the guest has completed it.')}}</p>
  <form method="post" action="/dashboard/settings/email/contact" class="row-form">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    % field('contact_name', _('Name'))
    % field('contact_phone', _('Phone'), kind='tel')
    % field('contact_email', _('E-mail address'), kind='email')
    <div class="actions"><button type="submit" class="primary">{{_('Save changes')}}</button></div>
  </form>
</section>
% if property_contacts:
<section class="card" aria-labelledby="property-contacts">
  <h2 id="property-contacts">{{_('Host contact per property')}}</h2>
  <p class="muted">{{_('A property looked after by someone else: its guests see this contact instead of the account’s. Empty: the account’s.')}}</p>
  % for prop, contact in property_contacts:
  <form method="post" action="/dashboard/settings/email/contact/{{prop.id}}" class="row-form">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <h3>{{prop.name}}</h3>
    % for name, label, kind, current in (('contact_name', _('Name'), 'text', contact.name if contact else ''), ('contact_phone', _('Phone'), 'tel', contact.phone if contact else ''), ('contact_email', _('E-mail address'), 'email', contact.email if contact else '')):
    % key = prop.id + ':' + name
    <div class="field"><label for="{{prop.id}}-{{name}}">{{label}}</label>
    <input id="{{prop.id}}-{{name}}" name="{{name}}" type="{{kind}}" value="{{current or ''}}"{{!' aria-invalid="true"' if key in errors else ''}}>
    % if key in errors:
    <p class="field-error">{{_(errors[key])}}</p>
    % end
    </div>
    % end
    <div class="actions"><button type="submit">{{_('Save changes')}}</button></div>
  </form>
  % end
</section>
% end
<section class="card" aria-labelledby="reminders">
  <h2 id="reminders">{{_('Reminders')}}</h2>
  <p class="muted">{{_('A guest who has not completed check-in is reminded by e-mail on these days before arrival (0: the morning of arrival), in the property’s local time, at most once a day. Empty: no reminders.')}}</p>
  <form method="post" action="/dashboard/settings/email/reminders" class="row-form">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    % field('reminder_days', _('Days before arrival'), hint=_('Like 7, 2, 0.'))
    <div class="actions"><button type="submit" class="primary">{{_('Save changes')}}</button></div>
  </form>
</section>
<section class="card" aria-labelledby="messages">
  <h2 id="messages">{{_('Messages to guests')}}</h2>
  <p class="muted">{{_('The texts of the e-mails guests receive, in each language: change them, preview them, or go back to the default.')}}</p>
  <table class="list">
    <thead><tr><th scope="col">{{_('Message')}}</th><th scope="col">{{_('Languages')}}</th></tr></thead>
    <tbody>
    % for kind in kinds:
    <tr><td data-label="{{_('Message')}}">{{_('kind:' + kind)}}</td>
      <td data-label="{{_('Languages')}}">
      % for code, name in languages.items():
        <a href="/dashboard/settings/email/messages/{{kind}}/{{code}}">{{name}}</a>{{!' <span class="badge">' + _('yours') + '</span>' if (kind, code) in own else ''}}{{!' <span class="badge s-at_risk">' + _('not used: the default is sent') + '</span>' if (kind, code) in broken else ''}}
      % end
      </td></tr>
    % end
    </tbody>
  </table>
</section>
