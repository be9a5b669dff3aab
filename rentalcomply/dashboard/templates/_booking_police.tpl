% from rentalcomply.dashboard.pages.police import filing_lines, hand_entry_party, receipt_lines
% from rentalcomply.dashboard.police_words import KIND_WORDS
% lines = filing_lines(page, booking, police)
% from rentalcomply.dashboard.police_words import link_expired, send_words, unfiled_sentence, unfiled_todo
<h3 id="police-filing">{{_('Police')}}</h3>
<dl class="facts">
  <dt>{{_('Status')}}</dt><dd><span class="badge s-{{police_status.lower()}}">{{fmt.status(police_status)}}</span></dd>
  % if police['deadline']:
  <dt>{{_('Police deadline')}}</dt><dd>{{fmt.iso_datetime(police['deadline'], booking.property.timezone)}}</dd>
  % end
</dl>
% if unfiled:
% # One box, whatever is late (the registration, the reservation): each said, the actions once.
<div class="notice {{'error' if any(item.passed for item in unfiled) else 'warn'}} deadline" id="police-deadline">
  % for item in unfiled:
  <p><strong>{{unfiled_sentence(_, fmt, item)}}</strong></p>
  <p>{{unfiled_todo(_, item)}}</p>
  % end
  % expired = link_expired(booking)
  <div class="buttons tight">
    % if any(item.why != 'not_checked_in' for item in unfiled):
    <a class="button" href="/dashboard/bookings/{{booking.id}}/edit">{{_('Edit the booking')}}</a>
    % end
    % if checkin_link and not expired and booking.guest_email:
    <form method="post" action="/dashboard/bookings/{{booking.id}}/checkin/resend" class="inline" id="send-link">
      <input type="hidden" name="csrf" value="{{page.csrf}}">
      <button type="submit" class="primary">{{_(send_words(booking))}}</button>
    </form>
    % end
    % if checkin_link and not expired and not booking.guest_email:
    <a class="button" href="#checkin-link-card">{{_('Share the check-in link')}}</a>
    % end
    % if checkin_link and not expired:
    <a class="button" id="enter-party" href="{{checkin_link['url']}}" target="_blank" rel="noopener" aria-describedby="enter-party-hint">{{_('Enter the party by hand')}}</a>
    % end
  </div>
  % if checkin_link and not expired:
  <p class="hint" id="enter-party-hint">{{_('Opens the guests’ form in a new tab: type the party from their documents.')}}</p>
  % end
</div>
% end
% if lines:
<ul class="filings">
  % for line in lines:
  <li class="filing f-{{line['status']}}">
    <strong>{{line['kind']}}</strong> <span class="badge s-{{line['status']}}">{{line['status_words']}}</span>
    % if line['deadline']:
    <span class="small muted">{{_('Due by')}} {{fmt.iso_datetime(line['deadline'], booking.property.timezone)}}</span>
    % end
    % if line['reason']:
    <p class="reason">{{line['reason']}}</p>
    % end
    % for number, said in line['refused']:
    <p class="small">{{_('Guest {number}', number=number)}}: {{said}}</p>
    % end
    % if line['setup_link']:
    <p><a href="{{line['setup_link']}}">{{_(line['setup_words'])}}</a></p>
    % end
  </li>
  % end
</ul>
% end
% receipts = receipt_lines(page, booking)
% if receipts:
<h4 id="police-receipts">{{_('Police receipts')}}</h4>
<p class="small muted">{{_('The authority’s receipt of each day the guests were filed, kept for the years its rules ask.')}}</p>
<ul class="receipts" aria-labelledby="police-receipts">
  % for r in receipts:
  % if r['status'] == 'kept':
  <li><a href="/dashboard/bookings/{{booking.id}}/police/receipts/{{r['id']}}" download>{{r['words']}}</a></li>
  % else:
  <li class="muted">{{r['words']}}</li>
  % end
  % end
</ul>
% end
% for f in police['filings']:
% if f['file_ready'] and f['status'] == 'ready':
<div class="buttons">
  % suffix = '' if f['kind'] == 'arrival' else '-' + f['kind']
  <a class="button" href="/dashboard/bookings/{{booking.id}}/police/file{{'' if f['kind'] == 'arrival' else '?kind=' + f['kind']}}" download>{{_('Download the police file')}}{{(' · ' + _(KIND_WORDS.get(f['kind'], f['kind']))) if suffix else ''}}</a>
</div>
<form method="post" action="/dashboard/bookings/{{booking.id}}/police/filed" class="row-form">
  <input type="hidden" name="csrf" value="{{page.csrf}}">
  <input type="hidden" name="kind" value="{{f['kind']}}">
  <div class="field"><label for="police-reference{{suffix}}">{{_('Reference of the upload (optional)')}}</label>
  <input id="police-reference{{suffix}}" name="reference" maxlength="200"{{!' aria-invalid="true"' if 'reference' in errors else ''}}></div>
  <div class="actions"><button type="submit">{{_('Mark as filed')}}</button></div>
</form>
% end
% end
% hand_party = hand_entry_party(booking, police)
% if hand_party is not None:
<div class="card" id="police-hand-entry">
<h4>{{_('The party, to type into the authority’s portal')}}</h4>
<table class="table">
  <thead><tr><th scope="col">{{_('Name')}}</th><th scope="col">{{_('Surnames')}}</th><th scope="col">{{_('Sex')}}</th><th scope="col">{{_('Birth date')}}</th><th scope="col">{{_('Nationality')}}</th><th scope="col">{{_('Document')}}</th><th scope="col">{{_('Support number')}}</th><th scope="col">{{_('Address')}}</th><th scope="col">{{_('Kinship')}}</th><th scope="col">{{_('Contact')}}</th></tr></thead>
  <tbody>
  % for g in hand_party:
  <tr><td>{{g['name']}}</td><td>{{g['surnames']}}</td><td>{{g['sex']}}</td><td>{{g['birth']}}</td><td>{{g['nationality']}}</td><td>{{g['document']}}</td><td>{{g['support']}}</td><td>{{g['address']}}</td><td>{{g['kinship']}}</td><td>{{g['contact']}}</td></tr>
  % end
  </tbody>
</table>
<form method="post" action="/dashboard/bookings/{{booking.id}}/police/filed" class="row-form" id="police-hand-filed">
  <input type="hidden" name="csrf" value="{{page.csrf}}">
  <div class="field"><label for="police-hand-reference">{{_('Reference in the portal (optional)')}}</label>
  <input id="police-hand-reference" name="reference" maxlength="200"></div>
  <div class="actions"><button type="submit">{{_('Mark as filed in the portal')}}</button></div>
</form>
</div>
% end
% # A held filing goes out by itself once its codes or set-up are there: filing again is not the way.
% if police_status in ('REJECTED', 'FAILED') and booking.checkin_status == 'COMPLETED' and booking.status != 'cancelled':
<form method="post" action="/dashboard/bookings/{{booking.id}}/police/refile" class="inline">
  <input type="hidden" name="csrf" value="{{page.csrf}}">
  <button type="submit" class="primary">{{_('File with the police again')}}</button>
</form>
% end
