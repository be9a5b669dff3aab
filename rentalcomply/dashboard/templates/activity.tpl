% rebase('layout.tpl')
<div class="head"><h1>{{_('Activity')}}</h1><p class="muted">{{_('Every change made in the dashboard or with an API key, every sign-in, and what RentalComply did on its own (check-ins, police filings, channel bookings, tax reports), newest first.')}}</p></div>
<form method="get" action="/dashboard/activity" class="filters" role="search">
  <div><label for="who">{{_('Who')}}</label>
  <select id="who" name="who">
    <option value="">{{_('Anyone')}}</option>
    <option value="system"{{!' selected' if filters['who'] == 'system' else ''}}>RentalComply ({{_('automatic')}})</option>
    % for kind, actor_id, label in actors:
    <option value="{{actor_id}}"{{!' selected' if actor_id == filters['who'] else ''}}>{{label or actor_id}}{{' (' + _('API key') + ')' if kind == 'key' else ''}}</option>
    % end
  </select></div>
  <div><label for="kind">{{_('What')}}</label>
  <select id="kind" name="kind">
    <option value="">{{_('Everything')}}</option>
    % for k in log.KINDS:
    <option value="{{k}}"{{!' selected' if k == filters['kind'] else ''}}>{{log.kind_name(k, page.lang)}}</option>
    % end
  </select></div>
  <div><label for="from">{{_('From')}}</label>
  <input id="from" name="from" type="date" value="{{filters['from']}}"{{!' aria-invalid="true" aria-describedby="from-error"' if 'from' in errors else ''}}>
  % if 'from' in errors:
  <p class="field-error" id="from-error">{{_(errors['from'])}}</p>
  % end
  </div>
  <div><label for="to">{{_('To')}}</label>
  <input id="to" name="to" type="date" value="{{filters['to']}}"{{!' aria-invalid="true" aria-describedby="to-error"' if 'to' in errors else ''}}>
  % if 'to' in errors:
  <p class="field-error" id="to-error">{{_(errors['to'])}}</p>
  % end
  </div>
  <div class="actions"><button type="submit" class="primary">{{_('Find')}}</button> <a class="button quiet" href="/dashboard/activity">{{_('Clear')}}</a></div>
</form>
<section class="card">
% if not rows:
<p class="empty">{{_('Nothing matches.') if any(filters.values()) else _('Nothing has changed yet.')}}</p>
% else:
<table class="list">
  <thead><tr><th scope="col">{{_('When')}}</th><th scope="col">{{_('Who')}}</th><th scope="col">{{_('What')}}</th></tr></thead>
  <tbody>
  % for a in rows:
  % subject = names.get(a.resource_id) if a.resource_id else None
  <tr>
    <td data-label="{{_('When')}}">{{fmt.datetime(a.at)}}</td>
    % if a.actor_type == 'system':
    <td data-label="{{_('Who')}}">RentalComply <span class="badge s-actor">{{_('automatic')}}</span></td>
    % elif a.actor_type == 'guest':
    <td data-label="{{_('Who')}}">{{names.get('guest:' + a.actor_id) or _('The guest')}} <span class="badge s-actor">{{_('Guest')}}</span></td>
    % else:
    <td data-label="{{_('Who')}}">{{a.actor_label or _('someone no longer here')}}{{!' <span class="badge s-actor">' + _('API key') + '</span>' if a.actor_type == 'key' else ''}}</td>
    % end
    <td data-label="{{_('What')}}">{{fmt.count('sync_imported', a.count) if a.action == 'sync.completed' else log.describe(a.action, page.lang)}}
      % if subject and a.link:
      · <a href="{{a.link}}">{{subject}}</a>
      % elif subject:
      · {{subject}}
      % end
    </td>
  </tr>
  % end
  </tbody>
</table>
% end
<nav class="pager" aria-label="{{_('Pages')}}">
  % if number > 1:
  <a class="button quiet" href="{{page_url(number - 1)}}">← {{_('Newer')}}</a>
  % end
  % if more:
  <a class="button quiet" href="{{page_url(number + 1)}}">{{_('Older')}} →</a>
  % end
</nav>
</section>
