% rebase('layout.tpl')
<div class="head"><p class="crumbs"><a href="/dashboard/taxes">{{_('Tourist taxes')}}</a></p>
<h1 class="wrap">{{rule['name']}}</h1>
<p><span class="badge s-{{'pending' if rule['shipped'] else 'ready'}}">{{_('shipped') if rule['shipped'] else _('your own')}}</span> <span class="muted">{{_('version {n}', n=rule['version'])}}</span></p></div>
% if errors:
<div class="notice error" role="alert"><p>{{_('Please correct the fields marked below.')}}</p></div>
% end
% if rule['shipped'] or page.user.role != 'owner':
<section class="card">
  <dl class="facts">
    <dt>{{_('Authority')}}</dt><dd>{{rule['authority']}} ({{rule['country']}})</dd>
    <dt>{{_('Charged')}}</dt><dd>{{_('tax_basis:' + rule['basis'])}}</dd>
    <dt>{{_('Most nights charged')}}</dt><dd>{{rule['max_nights'] or _('every night')}}</dd>
    <dt>{{_('Return')}}</dt><dd>{{_('tax_period:' + rule['returns']['every']) if rule['returns'] else _('none')}}</dd>
    <dt>{{_('Source')}}</dt><dd class="wrap">{{rule['source']}}</dd>
  </dl>
  <table class="list">
    <thead><tr><th scope="col">{{_('From')}}</th><th scope="col">{{_('To')}}</th><th scope="col">{{_('Amount (€)')}}</th><th scope="col">{{_('Source')}}</th></tr></thead>
    <tbody>
    % for rate in rule['rates']:
    <tr><td data-label="{{_('From')}}">{{rate['from']}}</td><td data-label="{{_('To')}}">{{rate['to'] or ''}}</td><td data-label="{{_('Amount (€)')}}">{{fmt.money(round(rate['amount'] * 100))}}</td><td data-label="{{_('Source')}}" class="wrap small">{{rate['source']}}</td></tr>
    % end
    </tbody>
  </table>
  % if rule['shipped']:
  <p class="hint">{{_('A shipped rule set cannot be changed: create your own to charge other rates.')}}</p>
  % end
</section>
% else:
<section class="card" aria-labelledby="edit-set">
  <h2 id="edit-set">{{_('Edit the rule set')}}</h2>
  <p class="hint">{{_('A change applies to the stays not collected yet; collected ones keep their amount.')}}</p>
  <form method="post" action="/dashboard/taxes/{{rule['id']}}" class="stack tax-rule-form" novalidate>
    % include('_tax_rule_form.tpl')
    <div class="actions"><button type="submit" class="primary">{{_('Save the rule set')}}</button></div>
  </form>
</section>
<section class="card danger" aria-labelledby="delete-set">
  <h2 id="delete-set">{{_('Delete the rule set')}}</h2>
  <p class="hint">{{_('Only a rule set no property names can be deleted.')}}</p>
  <form method="post" action="/dashboard/taxes/{{rule['id']}}/delete">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <button type="submit" class="danger">{{_('Delete')}}</button>
  </form>
</section>
% end
