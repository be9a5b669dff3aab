% rebase('layout.tpl')
<div class="head">
  <p class="crumbs"><a href="/dashboard/bookings">{{_('Bookings')}}</a></p>
  <h1>{{booking.guest_name}}</h1>
  % if booking.status != 'cancelled' and not booking.is_block:
  <p class="buttons tight"><a class="button" href="/dashboard/bookings/{{booking.id}}/edit">{{_('Edit the booking')}}</a></p>
  % end
  <p><span class="badge s-{{booking.status}}">{{fmt.status(booking.status)}}</span> <span class="chan c-{{booking.channel}}">{{fmt.channel(booking.channel)}}</span></p>
</div>
<div class="two">
<section class="card" aria-labelledby="stay">
  <h2 id="stay">{{_('Stay')}}</h2>
  <dl class="facts">
    <dt>{{_('Property')}}</dt><dd><a href="/dashboard/properties/{{booking.property_id}}">{{booking.property.name}}</a></dd>
    <dt>{{_('Arrival')}}</dt><dd>{{fmt.date(booking.arrival_date)}}</dd>
    <dt>{{_('Departure')}}</dt><dd>{{fmt.date(booking.departure_date)}}</dd>
    <dt>{{_('Nights')}}</dt><dd>{{fmt.count('night', booking.nights)}}</dd>
    <dt>{{_('Guests')}}</dt><dd>{{fmt.count('guest', booking.guest_count)}}</dd>
    <dt>{{_('Total price')}}</dt><dd>{{fmt.money(booking.total_price_cents)}}</dd>
    <dt>{{_('Payment method')}}</dt><dd>{{_('payment:' + booking.payment_method) if booking.payment_method else '—'}}</dd>
    % if booking.property.country == 'GR':
    <dt>{{_('Climate fee')}}</dt><dd>{{fmt.money(booking.climate_fee_cents)}}</dd>
    % end
    % if note:
    <dt>{{_('Notes for the team')}}</dt><dd class="note">{{note}}</dd>
    % end
    % if booking.external_ref:
    <dt>{{_('Reservation code')}}</dt><dd class="mono">{{booking.external_ref}}</dd>
    % end
    <dt>{{_('Booking reference')}}</dt><dd class="mono" id="booking-reference">{{view['reference']}}</dd>
    % if booking.cancelled_at:
    <dt>{{_('Cancelled')}}</dt><dd>{{fmt.datetime(booking.cancelled_at, booking.property.timezone)}}</dd>
    <dt>{{_('Amount kept')}}</dt><dd>{{fmt.money(booking.amount_kept_cents)}}</dd>
    % end
  </dl>
</section>
<section class="card" aria-labelledby="guest">
  <h2 id="guest">{{_('Guest and check-in')}}</h2>
  <dl class="facts">
    <dt>{{_('E-mail address')}}</dt><dd>{{booking.guest_email or '—'}}</dd>
    <dt>{{_('Phone')}}</dt><dd>{{booking.guest_phone or '—'}}</dd>
    <dt>{{_('Check-in')}}</dt><dd><span class="badge s-{{booking.checkin_status.lower()}}">{{fmt.status(booking.checkin_status)}}</span></dd>
    % if booking.checkin_error:
    % from rentalcomply.dashboard import problems
    % mail_at, mail_words = problems.booking_mail_problem(booking.checkin_error)
    <dt>{{_('E-mail problem')}}</dt><dd class="error-text">{{_(mail_words)}}{{(' (' + fmt.datetime(mail_at) + ')') if mail_at else ''}}</dd>
    % end
  </dl>
  % include('_document_flags.tpl')
  % include('_booking_police.tpl')
</section>
</div>
% if message:
<p class="notice error" role="alert">{{message}}</p>
% end
% if checkin_link:
% include('_checkin_link.tpl', link=checkin_link)
% end
% include('_booking_tax.tpl')
<section class="card" aria-labelledby="party">
  <h2 id="party">{{_('Guests')}}</h2>
  % if party['guests']:
  <table class="list">
    <thead><tr><th scope="col">{{_('Name')}}</th><th scope="col">{{_('Born')}}</th><th scope="col">{{_('Nationality')}}</th><th scope="col">{{_('Document')}}</th></tr></thead>
    <tbody>
    % for g in party['guests']:
    <tr>
      <td data-label="{{_('Name')}}">{{' '.join(x for x in (g.get('first_name'), g.get('last_name'), g.get('second_last_name')) if x)}}{{!' <span class="badge">' + _('lead') + '</span>' if g.get('role') == 'lead' else ''}}
      % include('_guest_contact.tpl', g=g)
      </td>
      <td data-label="{{_('Born')}}">{{fmt.short_date(g['birth_date']) if g.get('birth_date') else '—'}}</td>
      <td data-label="{{_('Nationality')}}">{{fmt.country(g.get('nationality'))}}</td>
      <td data-label="{{_('Document')}}">{{fmt.document(g.get('document_type'), g.get('document_number'), g.get('document_country'))}}</td>
    </tr>
    % end
    </tbody>
  </table>
  % elif party['purged_at']:
  <p class="empty">{{_('The guests’ data was erased at the end of its retention.')}}</p>
  % else:
  <p class="empty">{{_('No guest has checked in yet.')}}</p>
  % end
  % if checkin_link and (booking.guest_email or (party['guests'] and party['guests'][0].get('email'))):
  <form method="post" action="/dashboard/bookings/{{booking.id}}/checkin/resend" class="inline">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <button type="submit" class="primary">{{_('E-mail the link to the guest') if booking.checkin_status == 'NOT_STARTED' else _('Send the link again')}}</button>
    % if typed_email:
    <button type="submit" name="to" value="typed">{{_('Send it to {email}, typed by the guest', email=typed_email)}}</button>
    % end
  </form>
  % elif checkin_link:
  <p class="hint">{{_('The booking has no guest e-mail address: share the check-in link above, or add an address to e-mail it.')}}</p>
  % end
</section>
% include('_access_mail.tpl')
% include('_guest_mail.tpl')
<section class="card{{' danger' if booking.status != 'cancelled' else ''}}" aria-labelledby="cancel">
  % if booking.status != 'cancelled':
  <h2 id="cancel">{{_('Cancel the booking')}}</h2>
  <p class="muted">{{_('The guest is not told by RentalComply; webhooks announce booking.cancelled.')}}</p>
  % for said in cancellation:
  <p class="muted police-cancellation">{{_(said)}}</p>
  % end
  % else:
  <h2 id="cancel">{{_('Amount kept after the cancellation')}}</h2>
  % end
  <form method="post" action="/dashboard/bookings/{{booking.id}}/cancel" class="stack">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <div class="field"><label for="amount_kept">{{_('Amount the guest still pays (EUR)')}}</label>
    <input id="amount_kept" name="amount_kept" inputmode="decimal" value="{{amount_kept or (('%.2f' % (booking.amount_kept_cents / 100)) if booking.amount_kept_cents is not None else '')}}" aria-describedby="amount-hint{{' amount_kept-error' if 'amount_kept' in errors else ''}}"{{!' aria-invalid="true"' if 'amount_kept' in errors else ''}}>
    <p class="hint" id="amount-hint">{{_(amount_hint)}}</p>
    % if 'amount_kept' in errors:
    <p class="field-error" id="amount_kept-error">{{_(errors['amount_kept'])}}</p>
    % end
    </div>
    <div class="actions"><button type="submit" class="{{'danger' if booking.status != 'cancelled' else ''}}">{{_('Cancel booking') if booking.status != 'cancelled' else _('Save the amount')}}</button></div>
  </form>
</section>
