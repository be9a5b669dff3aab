% if closed_days_shown:
<section class="card" aria-labelledby="closed-days" id="closed-days-section">
  <h2 id="closed-days">{{_('Closed days')}}</h2>
  <p class="muted">{{_('Days the property is closed: the monthly tourism statistics report them as closed. A day on which a booking has a night cannot be closed.')}}</p>
  % if closed_ranges:
  <ul class="alias-list" id="closed-day-list">
    % for span in closed_ranges:
    <li class="alias-row"><span>{{fmt.date(span.first)}}{{!' – ' + fmt.date(span.last) if span.last != span.first else ''}} <span class="muted">({{fmt.count('day', span.days)}})</span></span></li>
    % end
  </ul>
  % else:
  <p id="closed-day-list">{{_('No closed days from {first} to {last}.', first=fmt.date(closed_window[0]), last=fmt.date(closed_window[1]))}}</p>
  % end
  % if closed_errors.get('bookings'):
  <div class="notice error" role="alert" id="closed-days-conflict"><p>{{closed_errors['first_day']}}</p>
    <ul>
    % for booking_id in closed_errors['bookings']:
      <li><a href="/dashboard/bookings/{{booking_id}}">{{_('Booking {id}', id=booking_id)}}</a></li>
    % end
    </ul></div>
  % end
  <form method="post" action="/dashboard/properties/{{prop.id}}/closed-days" class="stack">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <div class="grid">
    % for name, label in (('first_day', 'First day'), ('last_day', 'Last day (included)')):
    <div class="field"><label for="closed-{{name}}">{{_(label)}}</label>
    <input id="closed-{{name}}" name="{{name}}" type="date" value="{{closed_values.get(name, '')}}"{{!' required' if name == 'first_day' else ''}}{{!' aria-invalid="true" aria-describedby="closed-%s-error"' % name if name in closed_errors and not closed_errors.get('bookings') else ''}}>
    % if name in closed_errors and not closed_errors.get('bookings'):
    <p class="field-error" id="closed-{{name}}-error">{{_(closed_errors[name])}}</p>
    % end
    </div>
    % end
    </div>
    <div class="actions"><button type="submit" name="action" value="close">{{_('Close these days')}}</button> <button type="submit" name="action" value="open" class="quiet">{{_('Reopen these days')}}</button></div>
  </form>
</section>
% end
