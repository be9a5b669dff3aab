% if not rows:
<p class="empty">{{empty}}</p>
% else:
<table class="list compact-rows stays">
  <thead><tr>
    <th scope="col">{{_(date_label)}}</th><th scope="col">{{_('Guest')}}</th><th scope="col">{{_('Property')}}</th>
    <th scope="col">{{_('Stay')}}</th><th scope="col">{{_('Check-in')}}</th><th scope="col">{{_('Police')}}</th>
  </tr></thead>
  <tbody>
  % for b in rows:
    % shown = police_statuses.get(b.id, b.report_status)
    <tr>
      <td data-label="{{_(date_label)}}" class="nowrap">{{fmt.date(getattr(b, date_field))}}</td>
      <td data-label="{{_('Guest')}}"><a href="/dashboard/bookings/{{b.id}}">{{b.guest_name}}</a> <span class="chan c-{{b.channel}}">{{fmt.channel(b.channel)}}</span></td>
      <td data-label="{{_('Property')}}">{{names.get(b.property_id, '')}}</td>
      <td data-label="{{_('Stay')}}">{{fmt.count('night', b.nights)}} · {{fmt.count('guest', b.guest_count)}}</td>
      <td data-label="{{_('Check-in')}}"><span class="badge s-{{b.checkin_status.lower()}}">{{fmt.status(b.checkin_status)}}</span></td>
      <td data-label="{{_('Police')}}"><span class="badge s-{{shown.lower()}}">{{fmt.status(shown)}}</span></td>
    </tr>
  % end
  </tbody>
</table>
% end
