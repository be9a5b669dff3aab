% rebase('layout.tpl')
<div class="head"><h1>{{_('Calendar')}}</h1><p class="muted">{{_('Every property at once: one lane of stays each. Open a property for its month grid.')}}</p></div>
% if not properties:
<section class="card"><p class="empty">{{_('No properties yet.')}} <a href="/dashboard/properties/new">{{_('Add a property')}}</a></p></section>
% else:
<form method="get" action="/dashboard/calendar" class="filters compact">
  <div><label for="start">{{_('From')}}</label>
  <input id="start" name="start" type="date" value="{{start.isoformat()}}"{{!' aria-invalid="true" aria-describedby="start-error"' if errors else ''}}>
  % if errors:
  <p class="field-error" id="start-error">{{_(errors['start'])}}</p>
  % end
  </div>
  <div><label for="span">{{_('Show')}}</label>
  <select id="span" name="span">
    <option value="2w"{{!' selected' if span == '2w' else ''}}>{{_('Two weeks')}}</option>
    <option value="month"{{!' selected' if span == 'month' else ''}}>{{_('A month')}}</option>
  </select></div>
  <div class="actions"><button type="submit">{{_('Show')}}</button></div>
</form>
<section class="card timeline-card">
  <div class="monthbar">
    <a class="button quiet" href="/dashboard/calendar?span={{span}}&amp;start={{previous.isoformat()}}" aria-label="{{_('Earlier')}}">←</a>
    <h2>{{fmt.short_date(dates[0])}} – {{fmt.short_date(dates[-1])}}</h2>
    <a class="button quiet" href="/dashboard/calendar?span={{span}}&amp;start={{following.isoformat()}}" aria-label="{{_('Later')}}">→</a>
  </div>
  <div class="legend">
    % for ch in ('manual', 'airbnb', 'booking', 'vrbo', 'other'):
    <span class="chan c-{{ch}}">{{fmt.channel(ch)}}</span>
    % end
    <span class="chan block">{{_('Blocked')}}</span>
    <span class="chan conflict">{{_('Conflict')}}</span>
  </div>
  <div class="timeline-scroll">
  <div class="timeline days-{{len(dates)}}">
    <div class="tl-days" aria-hidden="true">
      % for d in dates:
      <span class="tl-day{{' weekend' if d.weekday() >= 5 else ''}}{{' today' if d == today else ''}}"><small>{{fmt.weekdays()[d.weekday()][:2]}}</small>{{d.day}}</span>
      % end
    </div>
    % for prop, bars in rows:
    <div class="tl-row">
      <h3 class="tl-name"><a href="/dashboard/calendar?property={{prop.id}}&amp;month={{start.strftime('%Y-%m')}}">{{prop.name}}</a>
        <span class="small muted">{{fmt.count('booking', len([b for b in bars if not b.booking.is_block]))}}</span></h3>
      <ul class="tl-lane" aria-label="{{prop.name}}">
        % for b in bars:
        % k = b.booking
        <li class="tl-bar from-{{b.column}} span-{{b.span}}{{' block' if k.is_block else ' c-' + k.channel}}{{' conflict' if b.conflict else ''}}{{' cut-left' if b.starts_before else ''}}{{' cut-right' if b.ends_after else ''}}">
          % label = _('Blocked') if k.is_block else k.guest_name
          % detail = fmt.short_date(k.arrival_date) + ' → ' + fmt.short_date(k.departure_date) + ' · ' + fmt.count('night', k.nights)
          % if k.is_block:
          <span title="{{detail}}">{{label}}<span class="visually-hidden"> {{detail}}</span></span>
          % else:
          <a href="/dashboard/bookings/{{k.id}}" title="{{label}} · {{detail}}">{{label}}<span class="visually-hidden"> {{detail}}{{' · ' + _('Conflict') if b.conflict else ''}}</span></a>
          % end
        </li>
        % end
      </ul>
    </div>
    % end
  </div>
  </div>
</section>
% end
