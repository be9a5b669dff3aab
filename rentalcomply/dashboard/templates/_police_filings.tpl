% # The Reports page's police filings of a month, per property of Italy, Spain or Portugal.
<section class="card" aria-labelledby="police-filings">
  <h2 id="police-filings">{{_('Police filings: Italy, Spain, Portugal')}}</h2>
  <p class="muted">{{_('The guests’ registrations (and Spain’s reservations) of the stays of the month, per property. Each stay’s filing is on its booking.')}}</p>
  <form method="get" action="/dashboard/reports#police-filings" class="filters compact">
    <div><label for="month">{{_('Month (YYYY-MM)')}}</label>
    <input id="month" name="month" maxlength="7" pattern="[0-9]{4}-[0-9]{2}" value="{{police['month']}}" inputmode="numeric"></div>
    <div class="actions"><button type="submit">{{_('Show')}}</button></div>
  </form>
  <h3 id="police-month">{{fmt.month(police['first'])}}</h3>
  <table class="list" aria-labelledby="police-month">
    <thead><tr><th scope="col">{{_('Property')}}</th><th scope="col">{{_('Authority')}}</th><th scope="col">{{_('Filed')}}</th><th scope="col">{{_('Held')}}</th><th scope="col">{{_('Refused')}}</th><th scope="col">{{_('Not filed yet')}}</th><th scope="col">{{_('Stays')}}</th></tr></thead>
    <tbody>
    % for r in police['rows']:
    %   c = r['counts']
    <tr>
      <td data-label="{{_('Property')}}"><a href="/dashboard/properties/{{r['prop'].id}}">{{r['prop'].name}}</a> <span class="muted">{{r['country']}}</span></td>
      <td data-label="{{_('Authority')}}">{{_('Police filing is off') if r['off'] else r['authority']}}</td>
      <td data-label="{{_('Filed')}}">{{c['filed']}}</td>
      <td data-label="{{_('Held')}}">{{!'<span class="badge s-at_risk">%d</span>' % c['held'] if c['held'] else '0'}}</td>
      <td data-label="{{_('Refused')}}">{{!'<span class="badge s-failed">%d</span>' % c['refused'] if c['refused'] else '0'}}</td>
      <td data-label="{{_('Not filed yet')}}">{{c['not_filed']}}</td>
      <td data-label="{{_('Stays')}}"><a href="{{r['stays_url']}}" aria-label="{{_('The month’s stays and their filings')}} · {{r['prop'].name}}">{{_('The month’s stays and their filings')}}</a></td>
    </tr>
    % end
    </tbody>
  </table>
</section>
