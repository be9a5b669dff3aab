% rebase('layout.tpl')
<div class="head"><p class="crumbs"><a href="/dashboard/reports">{{_('Tax reports')}}</a></p>
<h1>{{fmt.period(view['period'])}}</h1>
<p><span class="badge s-{{view['status']}}">{{fmt.status(view['status'])}}</span>
% if view['overdue']:
<span class="badge s-failed">{{_('overdue')}}</span>
% end
% if view['outdated']:
<span class="badge s-at_risk">{{_('outdated')}}</span>
% end
<span class="muted mono">{{view['id']}}</span></p></div>
% if view['outdated']:
<p class="notice warn">{{_('Bookings or properties of this period changed after the report was made: generate it again before filing.')}}</p>
% end
% if view['error']:
<p class="notice error">{{view['error']}}</p>
% end
<div class="two">
<section class="card" aria-labelledby="summary">
  <h2 id="summary">{{_('Summary')}}</h2>
  <dl class="facts">
    <dt>{{_('Stays')}}</dt><dd>{{view['booking_count']}}</dd>
    <dt>{{_('Nights')}}</dt><dd>{{view['nights']}}</dd>
    <dt>{{_('Revenue')}}</dt><dd>{{fmt.euros(view['total_revenue'])}}</dd>
    <dt>{{_('Net of the fee')}}</dt><dd>{{fmt.euros(view['net_revenue'])}}</dd>
    <dt>{{_('Climate fee')}}</dt><dd>{{fmt.euros(view['climate_fee_total'])}}</dd>
    <dt>{{_('Cancellations that pay')}}</dt><dd>{{view['cancellation_count']}} · {{fmt.euros(view['amount_kept'])}}</dd>
    <dt>{{_('Need attention')}}</dt><dd>{{view['needs_attention_count']}}</dd>
  </dl>
</section>
<section class="card" aria-labelledby="deadlines">
  <h2 id="deadlines">{{_('Deadlines and filing')}}</h2>
  <dl class="facts">
    % if view['due_date']:
    <dt>{{_('Declarations due')}}</dt><dd>{{fmt.date(view['due_date'])}}</dd>
    <dt>{{_('Fee due')}}</dt><dd>{{fmt.date(view['fee_due_date'])}}</dd>
    % end
    <dt>{{_('Generated')}}</dt><dd>{{fmt.iso_datetime(view['generated_at'])}}</dd>
    <dt>{{_('Filed')}}</dt><dd>{{fmt.iso_datetime(view['submitted_at']) if view['submitted_at'] else _('not yet')}}</dd>
    % if view['submission_reference']:
    <dt>{{_('Reference')}}</dt><dd class="mono">{{view['submission_reference']}}</dd>
    % end
  </dl>
</section>
</div>
<section class="card" aria-labelledby="files">
  <h2 id="files">{{_('Files')}}</h2>
  % if view['files']:
  <div class="buttons">
    % for f in formats:
    <a class="button{{' primary' if f == 'pdf' else ''}}" href="/dashboard/reports/{{view['id']}}/download/{{f}}" download>{{_('Download {format}', format=f.upper())}}</a>
    % end
  </div>
  % else:
  <p class="empty">{{_('No files yet: the report is being made. Reload in a moment.')}}</p>
  % end
  <form method="post" action="/dashboard/reports" class="inline">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <input type="hidden" name="period" value="{{view['id'][4:].replace('_', '-')}}">
    <button type="submit">{{_('Generate again')}}</button>
  </form>
</section>
% if view['status'] in ('completed', 'submitted'):
<section class="card" aria-labelledby="submit">
  <h2 id="submit">{{_('Mark as filed with AADE')}}</h2>
  <form method="post" action="/dashboard/reports/{{view['id']}}/submission" class="row-form">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <div class="field"><label for="reference">{{_('myAADE reference')}}</label>
    <input id="reference" name="reference" required maxlength="100" value="{{view['submission_reference'] or ''}}"{{!' aria-invalid="true"' if errors else ''}}></div>
    <div class="actions"><button type="submit" class="primary">{{_('Mark as filed')}}</button></div>
  </form>
</section>
% end
