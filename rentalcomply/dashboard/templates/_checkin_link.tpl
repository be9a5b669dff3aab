<section class="card" aria-labelledby="checkin-link-title" id="checkin-link-card">
  <h2 id="checkin-link-title">{{_('Check-in link')}}</h2>
  <p class="muted">{{_('It works now, with or without an e-mail address: send it to the guest by WhatsApp, SMS or the channel’s messages, or let them scan the code.')}}</p>
  <div class="copyrow">
    <label for="checkin-link" class="visually-hidden">{{_('Check-in link')}}</label>
    <input id="checkin-link" class="mono" readonly value="{{link['url']}}">
    <button type="button" class="copy" data-copy="checkin-link" data-copied="{{_('Copied')}}" hidden>{{_('Copy')}}</button>
  </div>
  <div class="qr-row">
    <figure class="qr-code">{{!link['qr']}}</figure>
    <div>
      <p class="hint">{{_('A guest who opens the property’s check-in link names the booking with its reference ({reference}), or with the channel’s reservation code.', reference=link['reference'])}}</p>
      % if booking.checkin_status == 'NOT_STARTED':
      <form method="post" action="/dashboard/bookings/{{booking.id}}/checkin/shared" class="inline">
        <input type="hidden" name="csrf" value="{{page.csrf}}">
        <button type="submit">{{_('I sent the link myself')}}</button>
      </form>
      <p class="hint">{{_('Marks the guest as invited, as a sent e-mail would.')}}</p>
      % end
    </div>
  </div>
</section>
