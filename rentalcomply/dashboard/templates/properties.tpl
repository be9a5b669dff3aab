% rebase('layout.tpl')
<div class="head row"><h1>{{_('Properties')}}</h1><a class="button primary" href="/dashboard/properties/new">{{_('Add a property')}}</a></div>
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
