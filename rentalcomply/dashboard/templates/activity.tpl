% rebase('layout.tpl')
<div class="head"><h1>{{_('Activity')}}</h1><p class="muted">{{_('Every change made in the dashboard or with an API key, newest first.')}}</p></div>
<section class="card">
% if not rows:
<p class="empty">{{_('Nothing has changed yet.')}}</p>
% else:
<table class="list">
  <thead><tr><th scope="col">{{_('When')}}</th><th scope="col">{{_('Who')}}</th><th scope="col">{{_('What')}}</th><th scope="col">{{_('Resource')}}</th></tr></thead>
  <tbody>
  % for a in rows:
  <tr>
    <td data-label="{{_('When')}}">{{fmt.datetime(a.created_at)}}</td>
    <td data-label="{{_('Who')}}"><span class="badge s-actor">{{_('user') if a.actor_type == 'user' else _('API key')}}</span> {{a.actor_label}}</td>
    <td data-label="{{_('What')}}" class="mono">{{a.action}}</td>
    <td data-label="{{_('Resource')}}" class="mono">{{a.resource_id or '—'}}</td>
  </tr>
  % end
  </tbody>
</table>
% end
<nav class="pager" aria-label="{{_('Pages')}}">
  % if number > 1:
  <a class="button quiet" href="/dashboard/activity?page={{number - 1}}">← {{_('Newer')}}</a>
  % end
  % if more:
  <a class="button quiet" href="/dashboard/activity?page={{number + 1}}">{{_('Older')}} →</a>
  % end
</nav>
</section>
