% # The data controller a guest's privacy notice names (accounts/controller.py); on Account.
% from rentalcomply.accounts.controller import controller_of
% shown = get('controller_values') or controller_of(page.account_id)
% problems = get('controller_errors') or {}
<section class="card" aria-labelledby="controller-title" id="controller">
  <h2 id="controller-title">{{_('Privacy notice for guests')}}</h2>
  % if not controller_of(page.account_id)['legal_name']:
  <p class="notice warn" id="controller-missing">{{_('Guests’ privacy notice names no data controller yet: give your legal name, address and a contact, as the data-protection law asks.')}}</p>
  % end
  <p class="muted">{{_('Whoever decides what is done with the guests’ details (you, or your company): the check-in page names them, with the law of the property’s country, how long the details are kept and the guests’ rights.')}} {{_('A person’s full name, or the company’s registered name.')}}</p>
  <form method="post" action="/dashboard/settings/account/controller" class="row-form">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    % for name, label, kind in (('legal_name', _('Legal name'), 'text'), ('address', _('Postal address'), 'text'), ('email', _('E-mail address'), 'email'), ('phone', _('Phone'), 'tel')):
    <div class="field"><label for="controller-{{name}}">{{label}}</label>
    <input id="controller-{{name}}" name="{{name}}" type="{{kind}}" value="{{shown[name]}}"{{!' aria-describedby="controller-%s-error" aria-invalid="true"' % name if name in problems else ''}}>
    % if name in problems:
    <p class="field-error" id="controller-{{name}}-error">{{_(problems[name])}}</p>
    % end
    </div>
    % end
    <div class="actions"><button type="submit" class="primary">{{_('Save changes')}}</button></div>
  </form>
</section>
