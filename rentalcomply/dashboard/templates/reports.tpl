% rebase('layout.tpl')
<div class="head"><h1>{{_('Reports')}}</h1><p class="muted">{{_('What each country’s authorities are owed for your properties.')}}</p></div>
% if no_property:
<section class="card"><p class="empty">{{_('No property yet: the reports and filings of its country appear here once you add one.')}}</p></section>
% end
% if police:
% include('_police_filings.tpl', police=police)
% end
% if aade:
<section aria-labelledby="aade-reports">
<h2 id="aade-reports">{{_('Greece: tax reports for AADE')}}</h2>
<p class="muted">{{_('Monthly stay declarations and climate fee, and the yearly income, for AADE.')}}</p>
% if errors:
<div class="notice error" role="alert">
  % for field, message in errors.items():
  <p>{{_('Period')}}: {{_(message)}}</p>
  % end
</div>
% end
<section class="card" aria-labelledby="generate">
  <h3 id="generate">{{_('Generate a report')}}</h3>
  <form method="post" action="/dashboard/reports" class="row-form">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <div class="field"><label for="period">{{_('Month (YYYY-MM) or year (YYYY)')}}</label>
    <input id="period" name="period" required maxlength="7" pattern="[0-9]{4}(-[0-9]{2})?" value="{{period}}" inputmode="numeric"{{!' aria-invalid="true"' if errors else ''}}></div>
    <div class="actions"><button type="submit" class="primary">{{_('Generate')}}</button></div>
  </form>
</section>
<form method="get" action="/dashboard/reports" class="filters compact">
  <div><label for="year">{{_('Year')}}</label>
  <select id="year" name="year">
    <option value="">{{_('All years')}}</option>
    % for y in years:
    <option value="{{y}}"{{!' selected' if y == year else ''}}>{{y}}</option>
    % end
  </select></div>
  <div class="actions"><button type="submit">{{_('Show')}}</button></div>
</form>
<section class="card" aria-label="{{_('AADE reports')}}">
% if not rows:
<p class="empty">{{_('No reports yet.')}}</p>
% else:
<table class="list">
  <thead><tr><th scope="col">{{_('Period')}}</th><th scope="col">{{_('Status')}}</th><th scope="col">{{_('Stays')}}</th><th scope="col">{{_('Revenue')}}</th><th scope="col">{{_('Climate fee')}}</th><th scope="col">{{_('Due')}}</th><th scope="col">{{_('Files')}}</th></tr></thead>
  <tbody>
  % for r in rows:
  <tr class="report">
    <td data-label="{{_('Period')}}"><a href="/dashboard/reports/{{r['id']}}">{{fmt.period(r['period'])}}</a>{{!'' if not r['outdated'] else ' <span class="badge s-at_risk">' + _('outdated') + '</span>'}}</td>
    <td data-label="{{_('Status')}}"><span class="badge s-{{r['status']}}">{{fmt.status(r['status'])}}</span>{{!' <span class="badge s-failed">' + _('overdue') + '</span>' if r['overdue'] else ''}}{{!' <span class="badge s-at_risk">' + _('provisional') + '</span>' if r['provisional'] else ''}}</td>
    <td data-label="{{_('Stays')}}">{{r['booking_count']}}{{!' <span class="badge s-at_risk">' + fmt.count('needs_attention', r['needs_attention_count']) + '</span>' if r['needs_attention_count'] else ''}}</td>
    <td data-label="{{_('Revenue')}}">{{fmt.euros(r['total_revenue'])}}</td>
    <td data-label="{{_('Climate fee')}}">{{fmt.euros(r['climate_fee_total'])}}</td>
    <td data-label="{{_('Due')}}" class="nowrap">{{fmt.date(r['due_date']) if r['due_date'] else '—'}}</td>
    <td data-label="{{_('Files')}}">
      % if r['files']:
      % for f in ('pdf', 'xml', 'csv'):
      <a class="file" href="/dashboard/reports/{{r['id']}}/download/{{f}}">{{f.upper()}}</a>
      % end
      % else:
      <span class="muted">—</span>
      % end
    </td>
  </tr>
  % end
  </tbody>
</table>
% end
</section>
</section>
% end
% if elsewhere:
<p class="hint">{{_('Nothing is reported or filed here for properties in these countries: {countries}.', countries=', '.join(elsewhere))}}</p>
% end
