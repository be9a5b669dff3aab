% rebase('layout.tpl')
<div class="head"><h1>{{_('Bookings')}}</h1>
<p class="buttons tight"><a class="button primary" href="/dashboard/bookings/new">{{_('New booking')}}</a> <a class="button" href="/dashboard/bookings/import">{{_('Import reservations')}}</a></p></div>
%# On a phone the filters fold under one line (open when a filter is in use); dashboard.js opens
%# them on a wide screen.
<details class="filter-box"{{!' open' if any(filters.values()) else ''}}>
<summary>{{_('Filter the list')}}</summary>
<form method="get" action="/dashboard/bookings" class="filters" role="search">
  <div><label for="guest">{{_('Guest or reservation code')}}</label>
  <input id="guest" name="guest" type="search" value="{{filters['guest']}}"></div>
  <div><label for="property">{{_('Property')}}</label>
  <select id="property" name="property">
    <option value="">{{_('All properties')}}</option>
    % for pid, name in sorted(names.items(), key=lambda item: item[1].lower()):
    <option value="{{pid}}"{{!' selected' if pid == filters['property'] else ''}}>{{name}}</option>
    % end
  </select></div>
  <div><label for="status">{{_('Status')}}</label>
  <select id="status" name="status">
    <option value="">{{_('Any')}}</option>
    % for s in statuses:
    <option value="{{s}}"{{!' selected' if s == filters['status'] else ''}}>{{fmt.status(s)}}</option>
    % end
  </select></div>
  <div><label for="checkin">{{_('Check-in')}}</label>
  <select id="checkin" name="checkin">
    <option value="">{{_('Any')}}</option>
    % for s in checkin_statuses:
    <option value="{{s}}"{{!' selected' if s == filters['checkin'] else ''}}>{{fmt.status(s)}}</option>
    % end
  </select></div>
  <div><label for="from">{{_('Staying from')}}</label>
  <input id="from" name="from" type="date" value="{{filters['from']}}"{{!' aria-invalid="true"' if 'from' in errors else ''}}></div>
  <div><label for="to">{{_('to')}}</label>
  <input id="to" name="to" type="date" value="{{filters['to']}}"{{!' aria-invalid="true"' if 'to' in errors else ''}}></div>
  <div class="actions"><button type="submit" class="primary">{{_('Find')}}</button> <a href="/dashboard/bookings" class="button quiet">{{_('Clear')}}</a></div>
</form>
</details>
% if errors:
<div class="notice error" role="alert">
  % for field, message in errors.items():
  <p>{{_(field)}}: {{_(message)}}</p>
  % end
</div>
% end
<section class="card">
% if not rows:
  <p class="empty">{{_('No bookings match.')}}</p>
% else:
<table class="list compact-rows">
  <thead><tr>
    <th scope="col">{{_('Guest')}}</th><th scope="col">{{_('Property')}}</th><th scope="col">{{_('Stay')}}</th>
    <th scope="col">{{_('Status')}}</th><th scope="col">{{_('Check-in')}}</th><th scope="col">{{_('Police')}}</th>
  </tr></thead>
  <tbody>
  % for b in rows:
    % shown = police_statuses.get(b.id, b.report_status)
    <tr>
      <td data-label="{{_('Guest')}}"><a href="/dashboard/bookings/{{b.id}}">{{b.guest_name}}</a> <span class="chan c-{{b.channel}}">{{fmt.channel(b.channel)}}</span></td>
      <td data-label="{{_('Property')}}">{{names.get(b.property_id, '')}}</td>
      <td data-label="{{_('Stay')}}"><span class="nowrap">{{fmt.short_date(b.arrival_date)}}</span> → <span class="nowrap">{{fmt.short_date(b.departure_date)}}</span><br><span class="small muted nights">{{fmt.count('night', b.nights)}}</span></td>
      <td data-label="{{_('Status')}}"><span class="badge s-{{b.status}}">{{fmt.status(b.status)}}</span></td>
      <td data-label="{{_('Check-in')}}"><span class="badge s-{{b.checkin_status.lower()}}">{{fmt.status(b.checkin_status)}}</span></td>
      <td data-label="{{_('Police')}}"><span class="badge s-{{shown.lower()}}">{{fmt.status(shown)}}</span></td>
    </tr>
  % end
  </tbody>
</table>
% end
<nav class="pager" aria-label="{{_('Pages')}}">
  % if number > 1:
  <a class="button quiet" href="{{page.url('/bookings', page=number - 1, **{k: v for k, v in filters.items() if v})}}">← {{_('Previous')}}</a>
  % end
  % if more:
  <a class="button quiet" href="{{page.url('/bookings', page=number + 1, **{k: v for k, v in filters.items() if v})}}">{{_('Next')}} →</a>
  % end
</nav>
</section>
