% rebase('layout.tpl')
<div class="head"><h1>{{_('Search')}}</h1></div>
<form method="get" action="/dashboard/search" class="filters compact" role="search">
  <div><label for="search-page-q">{{_('Name, e-mail, phone or code')}}</label>
  <input id="search-page-q" name="q" type="search" value="{{q}}" maxlength="200"></div>
  <div class="actions"><button type="submit" class="primary">{{_('Find')}}</button></div>
</form>
<section class="card" aria-labelledby="results">
% if not q:
  <h2 id="results" class="visually-hidden">{{_('Results')}}</h2>
  <p class="empty">{{_('Type a guest’s name (any guest of the party), an e-mail address, a phone number, a confirmation code or a booking reference.')}}</p>
% elif not found:
  <h2 id="results" class="visually-hidden">{{_('Results')}}</h2>
  <p class="empty">{{_('No booking matches “{query}”.', query=q)}}</p>
% else:
  <h2 id="results">{{_('Bookings found: {count}', count=len(found))}}</h2>
  % if len(found) >= limit:
  <p class="hint">{{_('Only the {count} latest are shown: add a word to narrow the search.', count=limit)}}</p>
  % end
<table class="list compact-rows">
  <thead><tr>
    <th scope="col">{{_('Guests')}}</th><th scope="col">{{_('Property')}}</th><th scope="col">{{_('Stay')}}</th><th scope="col">{{_('Status')}}</th>
  </tr></thead>
  <tbody>
  % for f in found:
    <tr>
      <td data-label="{{_('Guests')}}"><a href="/dashboard/bookings/{{f.booking.id}}">{{f.guests[0]}}</a>
        % if len(f.guests) > 1:
        <span class="small muted">· {{', '.join(f.guests[1:])}}</span>
        % end
        <br><span class="small muted"><span class="chan c-{{f.booking.channel}}">{{fmt.channel(f.booking.channel)}}</span> {{f.booking.external_ref or f.reference}}</span></td>
      <td data-label="{{_('Property')}}">{{f.property_name}}</td>
      <td data-label="{{_('Stay')}}"><span class="nowrap">{{fmt.short_date(f.booking.arrival_date)}}</span> → <span class="nowrap">{{fmt.short_date(f.booking.departure_date)}}</span></td>
      <td data-label="{{_('Status')}}"><span class="badge s-{{f.booking.status}}">{{fmt.status(f.booking.status)}}</span></td>
    </tr>
  % end
  </tbody>
</table>
% end
</section>
