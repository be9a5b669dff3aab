<section class="card" aria-labelledby="property-checkin-link">
  <h2 id="property-checkin-link">{{_('Check-in link for the channels’ messages')}}</h2>
  <p class="muted">{{_('One link for every guest of this property: paste it into the automatic (scheduled) message each channel sends before arrival. The guest enters the reservation code and the arrival date and lands on their own check-in page.')}}</p>
  <div class="copyrow">
    <label for="property-link" class="visually-hidden">{{_('Check-in link of the property')}}</label>
    <input id="property-link" class="mono" readonly value="{{link['url']}}">
    <button type="button" class="copy" data-copy="property-link" data-copied="{{_('Copied')}}" hidden>{{_('Copy')}}</button>
  </div>
  <div class="qr-row">
    <figure class="qr-code">{{!link['qr']}}</figure>
    <div>
      <p><strong>{{_('A message to paste')}}</strong></p>
      <p class="message-sample" id="property-link-message">{{_('Hello! Before you arrive, the law asks us to register every guest. Please complete the online check-in (about 3 minutes) at {link} — enter your reservation code and your arrival date. Thank you!', link=link['url'])}}</p>
      <p class="hint">{{_('Airbnb: Messages → Scheduled messages, a few days before check-in. Booking.com: Messages → Message preferences, an automatic message before arrival.')}}</p>
    </div>
  </div>
  <form method="post" action="/dashboard/properties/{{prop.id}}/checkin-link" class="inline">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <button type="submit" class="danger">{{_('Give it a new address')}}</button>
  </form>
  <p class="hint">{{_('The old link stops working at once: paste the new one into every channel’s message.')}}</p>
</section>
