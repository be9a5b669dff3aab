% from rentalcomply.dashboard.pages.police import filing_lines
% lines = filing_lines(page, booking, police)
% held = any(line['status'] == 'held' for line in lines)
<h3 id="police-filing">{{_('Police')}}</h3>
<dl class="facts">
  <dt>{{_('Status')}}</dt><dd><span class="badge s-{{'held' if held else booking.report_status.lower()}}">{{fmt.status('HELD' if held else booking.report_status)}}</span></dd>
  % if police['deadline']:
  <dt>{{_('Police deadline')}}</dt><dd>{{fmt.iso_datetime(police['deadline'], booking.property.timezone)}}</dd>
  % end
</dl>
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
    <p><a href="{{line['setup_link']}}">{{_('Complete the set-up')}}</a></p>
    % end
  </li>
  % end
</ul>
% end
% for f in police['filings']:
% if f['file_ready'] and f['status'] == 'ready':
<div class="buttons">
  <a class="button" href="/dashboard/bookings/{{booking.id}}/police/file" download>{{_('Download the police file')}}</a>
</div>
<form method="post" action="/dashboard/bookings/{{booking.id}}/police/filed" class="row-form">
  <input type="hidden" name="csrf" value="{{page.csrf}}">
  <div class="field"><label for="police-reference">{{_('Reference of the upload (optional)')}}</label>
  <input id="police-reference" name="reference" maxlength="200"{{!' aria-invalid="true"' if 'reference' in errors else ''}}></div>
  <div class="actions"><button type="submit">{{_('Mark as filed')}}</button></div>
</form>
% end
% end
% if (booking.report_status in ('REJECTED', 'FAILED') or held) and booking.checkin_status == 'COMPLETED' and booking.status != 'cancelled':
<form method="post" action="/dashboard/bookings/{{booking.id}}/police/refile" class="inline">
  <input type="hidden" name="csrf" value="{{page.csrf}}">
  <button type="submit" class="primary">{{_('File with the police again')}}</button>
</form>
% end
