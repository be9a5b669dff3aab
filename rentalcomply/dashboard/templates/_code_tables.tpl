<section class="card" aria-labelledby="code-tables">
  <h2 id="code-tables">{{_('Police code tables')}}</h2>
  <p class="muted">{{_('The authorities’ own tables of towns, states and documents, used to file your guests. RentalComply ships them; they are refreshed from each authority weekly once a property files with it, or now with the button.')}}</p>
  % if code_results:
  <ul class="notice ok" role="status">
  % for result in code_results:
    <li>{{_('codes:' + result['outcome'], country=_(result['country']), authority=result['authority'])}}</li>
  % end
  </ul>
  % end
  % for country in code_tables:
  <h3>{{_(country['name'])}}</h3>
  <ul>
  % for table in country['tables']:
    <li>{{table.name}}: {{fmt.count('code_row', table.rows)}}, {{table.source}}, {{_('published {date}', date=table.published) if table.shipped else _('loaded {date}', date=fmt.datetime(table.loaded_at))}}</li>
  % end
  </ul>
  % if country['partial']:
  <p class="hint">{{_('INE’s list shipped with RentalComply lacks a few municipalities: a guest’s town it lacks holds the filing, naming the town. SES.Hospedajes does not serve municipalities: the button fetches INE’s current list, or load INE’s file with rentalcomply police refresh-codes --country ES FILE.')}}</p>
  % end
  % end
  <form method="post" action="/dashboard/settings/account/code-tables" class="row-form">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <div class="actions"><button type="submit">{{_('Refresh code tables')}}</button></div>
  </form>
</section>
