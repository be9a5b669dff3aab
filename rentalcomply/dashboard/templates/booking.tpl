% rebase('layout.tpl')
<div class="head">
  <p class="crumbs"><a href="/dashboard/bookings">{{_('Bookings')}}</a></p>
  <h1>{{booking.guest_name}}</h1>
  <p><span class="badge s-{{booking.status}}">{{fmt.status(booking.status)}}</span> <span class="chan c-{{booking.channel}}">{{fmt.channel(booking.channel)}}</span> <span class="muted mono">{{booking.id}}</span></p>
</div>
<div class="two">
<section class="card" aria-labelledby="stay">
  <h2 id="stay">{{_('Stay')}}</h2>
  <dl class="facts">
    <dt>{{_('Property')}}</dt><dd><a href="/dashboard/properties/{{booking.property_id}}">{{booking.property.name}}</a></dd>
    <dt>{{_('Arrival')}}</dt><dd>{{fmt.date(booking.arrival_date)}}</dd>
    <dt>{{_('Departure')}}</dt><dd>{{fmt.date(booking.departure_date)}}</dd>
    <dt>{{_('Nights')}}</dt><dd>{{booking.nights}}</dd>
    <dt>{{_('Guests')}}</dt><dd>{{booking.guest_count}}</dd>
    <dt>{{_('Total price')}}</dt><dd>{{fmt.money(booking.total_price_cents)}}</dd>
    <dt>{{_('Climate fee')}}</dt><dd>{{fmt.money(booking.climate_fee_cents)}}</dd>
    % if booking.external_ref:
    <dt>{{_('Reservation code')}}</dt><dd class="mono">{{booking.external_ref}}</dd>
    % end
    % if booking.cancelled_at:
    <dt>{{_('Cancelled')}}</dt><dd>{{fmt.datetime(booking.cancelled_at)}}</dd>
    % end
  </dl>
</section>
<section class="card" aria-labelledby="guest">
  <h2 id="guest">{{_('Guest and check-in')}}</h2>
  <dl class="facts">
    <dt>{{_('E-mail address')}}</dt><dd>{{booking.guest_email or '—'}}</dd>
    <dt>{{_('Phone')}}</dt><dd>{{booking.guest_phone or '—'}}</dd>
    <dt>{{_('Check-in')}}</dt><dd><span class="badge s-{{booking.checkin_status.lower()}}">{{fmt.status(booking.checkin_status)}}</span></dd>
    <dt>{{_('Police')}}</dt><dd><span class="badge s-{{booking.report_status.lower()}}">{{fmt.status(booking.report_status)}}</span></dd>
    % if booking.report_error:
    <dt>{{_('Reason')}}</dt><dd>{{booking.report_error}}</dd>
    % end
  </dl>
</section>
</div>
% if booking.status != 'cancelled':
<section class="card danger" aria-labelledby="cancel">
  <h2 id="cancel">{{_('Cancel the booking')}}</h2>
  <p class="muted">{{_('The guest is not told by RentalComply; webhooks announce booking.cancelled.')}}</p>
  <form method="post" action="/dashboard/bookings/{{booking.id}}/cancel">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <button type="submit" class="danger">{{_('Cancel booking')}}</button>
  </form>
</section>
% end
