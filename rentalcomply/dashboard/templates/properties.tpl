% rebase('layout.tpl')
<div class="head row"><h1>{{_('Properties')}}</h1>
<div class="buttons tight">
  % if any(channels.values()):
  <form method="post" action="/dashboard/sync" class="inline">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <input type="hidden" name="next" value="/dashboard/properties">
    <button type="submit">{{_('Sync every feed now')}}</button>
  </form>
  % end
  <a class="button primary" href="/dashboard/properties/new">{{_('Add a property')}}</a>
</div></div>
<section class="card">
% if not props:
  <p class="empty">{{_('No properties yet.')}}</p>
% else:
<table class="list">
  <thead><tr><th scope="col">{{_('Name')}}</th><th scope="col">{{_('Address')}}</th><th scope="col">{{_('Channels')}}</th><th scope="col">{{_('Status')}}</th></tr></thead>
  <tbody>
  % for p in props:
    <tr>
      <td data-label="{{_('Name')}}"><a href="/dashboard/properties/{{p.id}}">{{p.name}}</a></td>
      <td data-label="{{_('Address')}}">{{p.address}}</td>
      <td data-label="{{_('Channels')}}">
        % for c in channels.get(p.id, []):
        <span class="chan c-{{c.provider}}">{{fmt.channel(c.provider)}}</span><span class="badge s-{{c.status}}">{{fmt.status(c.status)}}</span>
        % end
        % if not channels.get(p.id):
        <span class="muted">—</span>
        % end
      </td>
      <td data-label="{{_('Status')}}"><span class="badge s-{{p.status}}">{{fmt.status(p.status)}}</span></td>
    </tr>
  % end
  </tbody>
</table>
% end
</section>
