% rebase('layout.tpl')
<div class="head"><h1>{{_('Filings')}}</h1></div>
<p class="muted">{{_('Everything owed to an authority: the guests’ registrations of each stay and the returns of a period, the latest deadline first.')}}</p>
%# As the bookings' filters: folded on a phone (open when a filter is in use), open on a wide
%# screen (dashboard.js); a GET form, so that it works without JavaScript.
<details class="filter-box"{{!' open' if any(filters.values()) else ''}}>
<summary>{{_('Filter the list')}}</summary>
<form method="get" action="/dashboard/filings" class="filters" role="search">
  <div><label for="property">{{_('Property')}}</label>
  <select id="property" name="property">
    <option value="">{{_('All properties')}}</option>
    % for pid, name in sorted(names.items(), key=lambda item: item[1].lower()):
    <option value="{{pid}}"{{!' selected' if pid == filters['property'] else ''}}>{{name}}</option>
    % end
  </select></div>
  <div><label for="authority">{{_('Authority')}}</label>
  <select id="authority" name="authority">
    <option value="">{{_('Any')}}</option>
    % for name, title in authorities:
    <option value="{{name}}"{{!' selected' if name == filters['authority'] else ''}}>{{title}}</option>
    % end
  </select></div>
  <div><label for="status">{{_('Status')}}</label>
  <select id="status" name="status">
    <option value="">{{_('Any')}}</option>
    % for s in statuses:
    <option value="{{s}}"{{!' selected' if s == filters['status'] else ''}}>{{status_words[s]}}</option>
    % end
  </select></div>
  <div><label for="period">{{_('Period')}}</label>
  <input id="period" name="period" maxlength="7" value="{{filters['period']}}" placeholder="2026-03" aria-describedby="period-hint"{{!' aria-invalid="true"' if 'period' in errors else ''}}>
  <p class="hint" id="period-hint">{{_('A month (2026-03), a quarter (2026-Q1) or a year (2026).')}}</p></div>
  <div class="actions"><button type="submit" class="primary">{{_('Find')}}</button> <a href="/dashboard/filings" class="button quiet">{{_('Clear')}}</a></div>
</form>
</details>
% if errors:
<div class="notice error" role="alert">
  % for field, message in errors.items():
  <p>{{_(field)}}: {{_(message)}}</p>
  % end
</div>
% end
% if message:
<div class="notice error" role="alert"><p>{{_(message)}}</p></div>
% end
<section class="card" aria-labelledby="filings-heading">
<h2 id="filings-heading" class="visually-hidden">{{_('Filings')}}</h2>
% if not lines:
  <p class="empty">{{_('No filings match.')}}</p>
% else:
<table class="list filing-list">
  <thead><tr>
    <th scope="col">{{_('Filing')}}</th><th scope="col">{{_('Property')}}</th><th scope="col">{{_('Authority')}}</th>
    <th scope="col">{{_('Deadline')}}</th><th scope="col">{{_('Status')}}</th><th scope="col">{{_('Files')}}</th>
  </tr></thead>
  <tbody>
  % for line in lines:
    <tr id="{{line['id']}}" class="f-{{line['status']}}">
      <td data-label="{{_('Filing')}}"><strong>{{line['kind']}}</strong><br>
      % if line['stay'] is not None:
        <a href="/dashboard/bookings/{{line['booking_id']}}">{{line['stay'].guest_name}}</a> <span class="small muted nowrap">{{fmt.short_date(line['stay'].arrival_date)}} → {{fmt.short_date(line['stay'].departure_date)}}</span>
      % elif line['period']:
        <span>{{line['period']}}</span>
      % end
      </td>
      <td data-label="{{_('Property')}}">
      % if line['property']:
        <a href="/dashboard/properties/{{line['property_id']}}">{{line['property']}}</a>
      % end
      </td>
      <td data-label="{{_('Authority')}}">{{_(line['authority'])}}</td>
      <td data-label="{{_('Deadline')}}">{{fmt.iso_datetime(line['deadline'], line['timezone'])}}
      % if line['at_risk']:
        <br><span class="badge s-at_risk">{{fmt.status('AT_RISK')}}</span>
      % end
      </td>
      <td data-label="{{_('Status')}}"><span class="badge s-{{line['status']}}">{{line['status_words']}}</span>
      % if line['reference']:
        <br><span class="small muted">{{_('Reference')}}: {{line['reference']}}</span>
      % end
      % if line['reason']:
        <p class="reason small">{{line['reason']}}</p>
      % end
      % for number, said in line['refused']:
        <p class="small">{{_('Guest {number}', number=number)}}: {{said}}</p>
      % end
      % if line['can_refile']:
        <form method="post" action="/dashboard/filings/{{line['id']}}/refile{{'?' + query if query else ''}}" class="inline">
          <input type="hidden" name="csrf" value="{{page.csrf}}">
          <button type="submit" class="primary" aria-describedby="{{line['id']}}-what">{{_('Refile')}}</button>
        </form>
      % end
      % if line['can_mark_filed']:
        <form method="post" action="/dashboard/filings/{{line['id']}}/filed{{'?' + query if query else ''}}" class="row-form mark-filed">
          <input type="hidden" name="csrf" value="{{page.csrf}}">
          <div class="field"><label for="reference-{{line['id']}}">{{_('Reference of the upload (optional)')}}</label>
          <input id="reference-{{line['id']}}" name="reference" maxlength="200"{{!' aria-invalid="true"' if 'reference' in errors and reference_for == line['id'] else ''}}></div>
          <div class="actions"><button type="submit">{{_('Mark as filed')}}</button></div>
        </form>
      % end
      <span class="visually-hidden" id="{{line['id']}}-what">{{line['kind']}} · {{line['property']}} · {{line['period'] or (line['stay'].guest_name if line['stay'] is not None else '')}}</span>
      </td>
      <td data-label="{{_('Files')}}">
      % if line['file']:
        <a href="/dashboard/filings/{{line['id']}}/file" download>{{_('The file')}}</a>
      % end
      % if line['receipt']:
        % if line['file']:
        <br>
        % end
        <a href="/dashboard/filings/{{line['id']}}/receipt" download>{{_('The receipt')}}</a>
      % end
      % if not line['file'] and not line['receipt']:
        <span class="muted">—</span>
      % end
      </td>
    </tr>
  % end
  </tbody>
</table>
% end
<nav class="pager" aria-label="{{_('Pages')}}">
  % shown = {k: v for k, v in filters.items() if v}
  % if number > 1:
  <a class="button quiet" href="{{page.url('/filings', page=number - 1, **shown)}}">← {{_('Previous')}}</a>
  % end
  % if more:
  <a class="button quiet" href="{{page.url('/filings', page=number + 1, **shown)}}">{{_('Next')}} →</a>
  % end
</nav>
</section>
