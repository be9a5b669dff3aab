% # Today's arrivals whose tourist tax is still to collect (dashboard/service.py: tax_to_collect).
% if day.tax_to_collect:
<h3>{{_('Tourist tax to collect from today’s arrivals')}}</h3>
<ul class="issues" id="tax-to-collect">
  % for booking, tax in day.tax_to_collect:
  <li><a href="/dashboard/bookings/{{booking.id}}#tourist-tax">{{booking.guest_name}}</a> · {{day.properties.get(booking.property_id, '')}} · <strong>{{fmt.money(round(tax['amount'] * 100))}}</strong></li>
  % end
</ul>
% end
