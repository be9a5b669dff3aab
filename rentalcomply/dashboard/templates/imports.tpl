% rebase('layout.tpl')
<div class="head">
  <p class="crumbs"><a href="/dashboard/bookings">{{_('Bookings')}}</a></p>
  <h1>{{_('Import reservations')}}</h1>
  <p class="muted">{{_('The channels’ calendars bring no guest names, party sizes or prices. Their reservation files do: download the file from Airbnb (Reservations › Export › Download CSV file) or from the Booking.com extranet (Reservations › Download) and upload it here. Nothing changes until you apply the preview; what you typed yourself is never overwritten.')}}</p>
</div>
% if error:
<div class="notice error" role="alert"><p>{{error}}</p></div>
% end
% if report is not None:
% totals = report.totals
<div class="notice {{'ok' if applied else 'warn'}}" role="status" id="import-summary">
  % waiting = sum(1 for row in report.rows if row.property_id is None and row.action == 'conflict')
  % if waiting and not applied:
  %   shown_totals = dict(totals, conflict=totals['conflict'] - waiting, waiting=waiting)
  <p>{{_('Preview: {created} new, {updated} filled in, {unchanged} unchanged, {conflict} conflicts, {waiting} waiting for their listing’s property. Nothing has changed yet.', **shown_totals)}}</p>
  % else:
  <p>{{_('Imported: {created} new, {updated} filled in, {unchanged} unchanged, {conflict} conflicts.', **totals) if applied else _('Preview: {created} new, {updated} filled in, {unchanged} unchanged, {conflict} conflicts. Nothing has changed yet.', **totals)}}</p>
  % end
  % if report.unknown_listings and not applied:
  <p><strong>{{_('Listings to match with a property: {count}.', count=len(report.unknown_listings))}}</strong> {{_('Choose the property of each one below.')}}</p>
  % end
  % for note in report.notes:
  <p>{{_('Note:')}} {{note_text(note)}}</p>
  % end
</div>
% if report.unknown_listings and not applied:
<section class="card" aria-labelledby="listings-title" id="unknown-listings">
<h2 id="listings-title">{{_('Which property is each listing?')}}</h2>
<p class="muted">{{_('The file names listings that none of your properties is called. Choose the property of each one: the answer is remembered, so the next file goes to the right place without asking (you can change it on the property’s page).')}}</p>
<form method="post" action="/dashboard/bookings/import/answer" id="listings-form">
  <input type="hidden" name="csrf" value="{{page.csrf}}">
  <input type="hidden" name="preview" value="{{preview_id}}">
  % for index, (title, property) in enumerate(answers.items()):
  <input type="hidden" name="title_{{index}}" value="{{title}}">
  <input type="hidden" name="property_{{index}}" value="{{property}}">
  % end
  % for offset, unknown in enumerate(report.unknown_listings):
  %   index = len(answers) + offset
  <div class="field listing-question">
    <input type="hidden" name="title_{{index}}" value="{{unknown['listing']}}">
    <label for="property_{{index}}">{{unknown['listing'] or _('Rows without a listing name')}}</label>
    <p class="hint" id="rows_{{index}}">{{_('Rows {rows}', rows=', '.join(str(number) for number in unknown['rows']))}}{{'' if unknown['remembered'] else ' · ' + _('for this file only: a unit type names no single property')}}</p>
    <select id="property_{{index}}" name="property_{{index}}" aria-describedby="rows_{{index}}">
      <option value="">{{_('Choose the property…')}}</option>
      % for value, text in sorted(names.items(), key=lambda item: item[1].casefold()):
      <option value="{{value}}">{{text}}</option>
      % end
    </select>
  </div>
  % end
  <div class="actions"><button type="submit" class="primary">{{_('Preview with these properties')}}</button></div>
</form>
</section>
% end
<section class="card" aria-labelledby="rows-title">
<h2 id="rows-title">{{_('Imported rows') if applied else _('What the import will do')}}</h2>
<table class="list" id="import-rows">
  <thead><tr><th scope="col">{{_('Row')}}</th><th scope="col">{{_('Code')}}</th><th scope="col">{{_('Property')}}</th><th scope="col">{{_('Guest')}}</th><th scope="col">{{_('Stay')}}</th><th scope="col">{{_('Result')}}</th><th scope="col">{{_('Changes')}}</th><th scope="col">{{_('Why')}}</th></tr></thead>
  <tbody>
  % for row in report.rows:
  <tr class="import-{{row.action}}">
    <td data-label="{{_('Row')}}">{{row.row}}</td>
    <td data-label="{{_('Code')}}" class="mono">{{row.code}}</td>
    <td data-label="{{_('Property')}}" class="import-property">
      % if row.property_id:
      <strong>{{names.get(row.property_id, '—')}}</strong>
      % else:
      <em>{{_('not chosen yet')}}</em>
      % end
      % if row.listing and names.get(row.property_id) != row.listing:
      <div class="muted small">{{row.listing}}</div>
      % end
    </td>
    <td data-label="{{_('Guest')}}">
      % if row.booking_id:
      <a href="/dashboard/bookings/{{row.booking_id}}">{{row.guest_name or '—'}}</a>
      % else:
      {{row.guest_name or '—'}}
      % end
    </td>
    <td data-label="{{_('Stay')}}"><span class="nowrap">{{fmt.short_date(row.arrival)}} –</span> <span class="nowrap">{{fmt.short_date(row.departure)}}</span></td>
        % if row.property_id is None and row.action == 'conflict':
    <td data-label="{{_('Result')}}"><span class="badge s-pending">{{_('waiting')}}</span></td>
    % else:
    <td data-label="{{_('Result')}}"><span class="badge s-{{ {'created': 'ok', 'updated': 'ok', 'unchanged': 'pending', 'conflict': 'error'}[row.action] }}">{{_(action_words[row.action])}}</span></td>
    % end
    <td data-label="{{_('Changes')}}">
      % for name, (before, after) in row.changes.items():
      % if name == 'currency':
      %   continue
      % end
      <div>{{_(change_words.get(name, name))}}: {{shown(name, before)}} → <strong>{{shown(name, after)}}</strong></div>
      % end
      % if row.create:
      % party = [(_(word), row.create.get(name)) for name, word in (('adults', 'Adults'), ('children', 'Children'), ('infants', 'Infants')) if row.create.get(name)]
      <div>{{_('Guests')}}: <strong>{{row.create['guest_count']}}</strong>{{!'' if len(party) < 2 else ' <span class="muted">(' + ', '.join(f'{word} {count}' for word, count in party).replace('&', '&amp;').replace('<', '&lt;') + ')</span>'}}</div>
      % if row.create.get('total_price_cents') is not None:
      <div>{{_('Price')}}: <strong>{{shown('total_price_cents', row.create['total_price_cents'])}}</strong></div>
      % end
      % if row.create.get('guest_phone'):
      <div>{{_('Phone')}}: <span class="nowrap">{{row.create['guest_phone']}}</span></div>
      % end
      % end
    </td>
    <td data-label="{{_('Why')}}">{{reason_text(row)}}</td>
  </tr>
  % end
  </tbody>
</table>
% if not applied:
<form method="post" action="/dashboard/bookings/import/apply" class="actions" id="apply-form">
  <input type="hidden" name="csrf" value="{{page.csrf}}">
  <input type="hidden" name="preview" value="{{preview_id}}">
  <input type="hidden" name="plan" value="{{report.plan_digest}}">
  <input type="hidden" name="property_id" value="{{property_id}}">
  % for index, (title, property) in enumerate(answers.items()):
  <input type="hidden" name="title_{{index}}" value="{{title}}">
  <input type="hidden" name="property_{{index}}" value="{{property}}">
  % end
  % if report.unknown_listings:
  <p class="muted">{{_('Choose the property of each listing above first: nothing of the file is applied before.')}}</p>
  % else:
  <button type="submit" class="primary"{{!'' if totals['created'] or totals['updated'] else ' disabled'}}>{{_('Apply these changes')}}</button>
  % end
  <a class="button quiet" href="/dashboard/bookings/import">{{_('Cancel')}}</a>
</form>
% else:
<p class="actions"><a class="button" href="/dashboard/bookings">{{_('Bookings')}}</a> <a class="button quiet" href="/dashboard/bookings/import">{{_('Import another file')}}</a></p>
% end
</section>
% end
% if report is None or applied:
<section class="card" aria-labelledby="upload-title">
<h2 id="upload-title">{{_('Upload a file')}}</h2>
<form method="post" action="/dashboard/bookings/import" enctype="multipart/form-data" id="upload-form">
  <input type="hidden" name="csrf" value="{{page.csrf}}">
  <div class="field">
    <label for="file">{{_('Reservations file (.csv, .xls or .xlsx)')}}</label>
    <input id="file" name="file" type="file" required accept=".csv,.xls,.xlsx,text/csv,application/vnd.ms-excel,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet">
  </div>
  <p class="hint">{{_('Each row goes to the property its listing is. A listing none of your properties is called is asked once, and remembered.')}}</p>
  <div class="actions"><button type="submit" class="primary">{{_('Preview')}}</button></div>
</form>
</section>
% end
