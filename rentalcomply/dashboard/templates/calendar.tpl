% rebase('layout.tpl')
<div class="head"><p class="crumbs"><a href="/dashboard/calendar">{{_('All properties')}}</a></p><h1>{{_('Calendar')}}</h1></div>
% if not properties:
<section class="card"><p class="empty">{{_('No properties yet.')}} <a href="/dashboard/properties/new">{{_('Add a property')}}</a></p></section>
% else:
<form method="get" action="/dashboard/calendar" class="filters compact">
  <div><label for="property">{{_('Property')}}</label>
  <select id="property" name="property">
    % for p in properties:
    <option value="{{p.id}}"{{!' selected' if p.id == chosen else ''}}>{{p.name}}</option>
    % end
  </select></div>
  <div><label for="month">{{_('Month')}}</label>
  <input id="month" name="month" type="month" value="{{first.strftime('%Y-%m')}}"{{!' aria-invalid="true"' if errors else ''}}></div>
  <div class="actions"><button type="submit">{{_('Show')}}</button></div>
</form>
% if errors:
<p class="notice error" role="alert">{{_('Month')}}: {{_(errors.get('month', ''))}}</p>
% end
<section class="card">
  <div class="monthbar">
    <a class="button quiet" href="/dashboard/calendar?property={{chosen}}&amp;month={{previous}}" aria-label="{{_('Previous month')}}">←</a>
    <h2>{{fmt.month(first)}}</h2>
    <a class="button quiet" href="/dashboard/calendar?property={{chosen}}&amp;month={{following}}" aria-label="{{_('Next month')}}">→</a>
  </div>
  <div class="legend">
    % for ch in ('manual', 'airbnb', 'booking', 'vrbo', 'other'):
    <span class="chan c-{{ch}}">{{fmt.channel(ch)}}</span>
    % end
    <span class="chan block">{{_('Blocked')}}</span>
    <span class="conflict-key">⚠ {{_('Conflict')}}</span>
  </div>
  <table class="month">
    <caption class="visually-hidden">{{fmt.month(first)}}</caption>
    <thead><tr>
    % for wd in fmt.weekdays():
      <th scope="col">{{wd}}</th>
    % end
    </tr></thead>
    <tbody>
    % today = fmt.today()
    % for week in grid:
      <tr>
      % for d in week:
        <td class="{{'out' if not d.in_month else ''}}{{' has-conflict' if d.conflict else ''}}{{' today' if d.date == today else ''}}">
          <span class="dnum">{{d.date.day}}</span>
          % if d.conflict:
          <span class="conflict" title="{{_('Conflict')}}">⚠<span class="visually-hidden">{{_('Conflict')}}</span></span>
          % end
          % for s in d.stays:
          % b = s.booking
          % if b.is_block:
          <span class="stay block{{' conflicted' if s.conflict else ''}}">{{_('Blocked')}}</span>
          % else:
          <a class="stay c-{{b.channel}}{{' conflicted' if s.conflict else ''}}" href="/dashboard/bookings/{{b.id}}">{{b.guest_name}}</a>
          % end
          % end
        </td>
      % end
      </tr>
    % end
    </tbody>
  </table>
</section>
% end
