% rebase('layout.tpl')
<div class="head"><h1>{{_('Tourist taxes')}}</h1><p class="muted">{{_('The tax rule sets your properties charge on their stays. The shipped ones come with their sources and cannot be changed; add your town’s own.')}}</p></div>
% if errors:
<div class="notice error" role="alert">
  <p>{{_('Please correct the fields marked below.')}}</p>
</div>
% end
<section class="card" aria-labelledby="sets-title">
<h2 id="sets-title">{{_('Rule sets')}}</h2>
<table class="list" id="rule-sets">
  <thead><tr><th scope="col">{{_('Name')}}</th><th scope="col">{{_('Authority')}}</th><th scope="col">{{_('Rate now')}}</th><th scope="col">{{_('Return')}}</th><th scope="col">{{_('Kind')}}</th></tr></thead>
  <tbody>
  % for one in sets:
  %   latest = max(one['rates'], key=lambda rate: rate['from']) if one['rates'] else None
  <tr>
    <td data-label="{{_('Name')}}" class="wrap"><a href="/dashboard/taxes/{{one['id']}}">{{one['name']}}</a></td>
    <td data-label="{{_('Authority')}}">{{one['authority']}} ({{one['country']}})</td>
    <td data-label="{{_('Rate now')}}">{{fmt.money(round(latest['amount'] * 100)) if latest else ''}} {{_('tax_basis_short:' + one['basis'])}}</td>
    <td data-label="{{_('Return')}}">{{_('tax_period:' + one['returns']['every']) if one['returns'] else _('none')}}</td>
    <td data-label="{{_('Kind')}}"><span class="badge s-{{'pending' if one['shipped'] else 'ready'}}">{{_('shipped') if one['shipped'] else _('your own')}}</span></td>
  </tr>
  % end
  </tbody>
</table>
</section>
% if page.user.role == 'owner':
<section class="card" aria-labelledby="new-set">
  <h2 id="new-set">{{_('New rule set')}}</h2>
  <form method="post" action="/dashboard/taxes" class="stack tax-rule-form" novalidate>
    % include('_tax_rule_form.tpl')
    <div class="actions"><button type="submit" class="primary">{{_('Create the rule set')}}</button></div>
  </form>
</section>
% end
