% rebase('layout.tpl')
<div class="head"><p class="crumbs"><a href="/dashboard/reports">{{_('Reports')}}</a></p>
<h1>{{fmt.period(view['period'])}}</h1>
<p><span class="badge s-{{view['status']}}">{{fmt.status(view['status'])}}</span>
% if view['overdue']:
<span class="badge s-failed">{{_('overdue')}}</span>
% end
% if view['outdated']:
<span class="badge s-at_risk">{{_('outdated')}}</span>
% end
% if view['provisional']:
<span class="badge s-at_risk">{{_('provisional')}}</span>
% end
</p></div>
% if view['outdated']:
<p class="notice warn">{{_('Bookings or properties of this period changed after the report was made: generate it again before filing.')}}</p>
% end
% if view['provisional']:
<p class="notice warn">{{_('The period is still running: this report holds only the stays that ended by {date}. It is generated again once the period has closed; file that one.').format(date=fmt.date(view['as_of']))}}</p>
% end
% if view['error']:
% from rentalcomply.dashboard import problems
<p class="notice error">{{_(problems.report(view['error']))}}</p>
% end
<div class="two">
<section class="card" aria-labelledby="summary">
  <h2 id="summary">{{_('Summary')}}</h2>
  <dl class="facts">
    <dt>{{_('Stays')}}</dt><dd>{{view['booking_count']}}</dd>
    <dt>{{_('Nights')}}</dt><dd>{{fmt.number(view['nights'])}}</dd>
    <dt>{{_('Revenue')}}</dt><dd>{{fmt.euros(view['total_revenue'])}}</dd>
    <dt>{{_('Net of the fee')}}</dt><dd>{{fmt.euros(view['net_revenue'])}}</dd>
    <dt>{{_('Climate fee')}}</dt><dd>{{fmt.euros(view['climate_fee_total'])}}</dd>
    <dt>{{_('Cancellations that pay')}}</dt><dd>{{view['cancellation_count']}} · {{fmt.euros(view['amount_kept'])}}</dd>
    <dt>{{_('Need attention')}}</dt><dd>{{len(attention)}}{{!' <a href="#attention">' + _('see below') + '</a>' if attention else ''}}</dd>
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
% if attention:
<section class="card danger" aria-labelledby="attention" id="attention">
  <h2 id="attention-title">{{_('Bookings that need attention')}}</h2>
  <p class="muted">{{_('They are left out of every total until they are corrected; generate the report again afterwards.')}}</p>
  <ul class="attention">
  % for a, texts in attention:
    <li><a href="/dashboard/bookings/{{a.booking_id}}">{{a.guest_name or a.booking_id}}</a> · {{a.property_name}} · {{fmt.short_date(a.arrival)}} → {{fmt.short_date(a.departure)}}
      <ul>
      % for t in texts:
        <li>{{t}}</li>
      % end
      </ul>
      <a class="small" href="{{'/dashboard/properties/' + a.property_id if any(code == 'no_ama' for code, _v in a.reasons) else '/dashboard/bookings/' + a.booking_id + '/edit'}}">{{_('Correct it')}}</a>
    </li>
  % end
  </ul>
</section>
% end
<section class="card" aria-labelledby="files">
  <h2 id="files">{{_('Files')}}</h2>
  % if view['files']:
  <div class="buttons">
    % for f in formats:
    <a class="button{{' primary' if f == 'pdf' else ''}}" href="/dashboard/reports/{{view['id']}}/download/{{f}}" download>{{_('Download {format}', format=f.upper())}}</a>
    % end
  </div>
  % else:
  % if view['status'] in ('pending', 'generating'):
  <p class="empty">{{_('No files yet: the report is being made. Reload in a moment.')}}</p>
  % else:
  <p class="empty">{{_('No files: the report could not be made.')}}</p>
  % end
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
  % if message:
  <p class="notice error" role="alert">{{message}}</p>
  % end
  % if attention:
  <p class="notice warn">{{fmt.count('period_needs_attention', len(attention))}}</p>
  % end
  <form method="post" action="/dashboard/reports/{{view['id']}}/submission" class="row-form">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <div class="field"><label for="reference">{{_('myAADE reference')}}</label>
    <input id="reference" name="reference" required maxlength="100" value="{{view['submission_reference'] or ''}}"{{!' aria-invalid="true"' if errors else ''}}></div>
    % if attention:
    <label class="check"><input type="checkbox" name="anyway" value="yes"> {{_('File anyway, without the bookings that need attention')}}</label>
    % end
    <div class="actions"><button type="submit" class="primary">{{_('Mark as filed')}}</button></div>
  </form>
</section>
% end
