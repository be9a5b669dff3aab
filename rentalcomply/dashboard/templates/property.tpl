% rebase('layout.tpl')
<div class="head"><p class="crumbs"><a href="/dashboard/properties">{{_('Properties')}}</a></p><h1>{{prop.name}}</h1>
<p class="muted">{{prop.address}}</p>
% if prop.country == 'IT' and prop.cin:
<p class="muted" id="cin-shown"><abbr lang="it" title="Codice identificativo nazionale">CIN</abbr> <span lang="it">{{prop.cin}}</span></p>
% end
% if prop.country == 'ES' and prop.licence_number:
<p class="muted" id="licence-shown"><span lang="es">{{prop.licence_number}}</span>
% if prop.nrua:
 · NRUA <span lang="es">{{prop.nrua}}</span>
% end
</p>
% end
</div>
% if errors or police['errors']:
<div class="notice error" role="alert"><p>{{_('Please correct the fields marked below.')}}</p></div>
% end
% if police['missing']:
<div class="notice warn" role="alert" id="police-setup-warning"><p>{{_('Police filing is on, but its set-up is not complete: nothing can be sent to {authority}.', authority=police['title'])}} <a href="#police-setup">{{_('Complete the police set-up')}}</a></p></div>
% end
% if not_filed is not None:
<div class="notice warn" role="alert" id="not-filed"><p>{{_('Guests of {property} are not being filed with the police: choose its authority.', property=prop.name)}}</p>
% if not_filed['authority'] is not None:
<form method="post" action="/dashboard/properties/{{prop.id}}/police/choose" class="inline">
  <input type="hidden" name="csrf" value="{{page.csrf}}">
  <input type="hidden" name="police_connector" value="{{not_filed['authority'].name}}">
  <button type="submit" class="primary">{{_('File with {authority}', authority=not_filed['authority'].title)}}</button>
</form>
% end
<p><a href="#police_connector">{{_('Choose another connector')}}</a></p></div>
% end
% if prop.country == 'ES' and not prop.licence_number and prop.status == 'active':
<div class="notice warn" role="alert" id="licence-warning"><p>{{_('This Spanish property has no tourism licence number: every listing must show it.')}} <a href="#licence_number">{{_('Enter the licence number')}}</a></p></div>
% end
% from rentalcomply.filings.registry import on_wrong_authority
% owed = on_wrong_authority(prop)
% if owed is not None:
<div class="notice warn" role="alert" id="wrong-authority"><p>{{_('This property is in {region}: its guests are registered with {authority}, not {current}. Nothing moves without you: confirm the move.', region=prop.region, authority=owed.title, current=police['title'] or prop.police_connector)}}</p>
<form method="post" action="/dashboard/properties/{{prop.id}}/police/move" class="inline">
  <input type="hidden" name="csrf" value="{{page.csrf}}">
  <input type="hidden" name="police_connector" value="{{owed.name}}">
  <button type="submit" class="primary">{{_('Move to {authority}', authority=owed.title)}}</button>
</form></div>
% end
% if prop.country == 'IT' and not prop.cin and prop.status == 'active':
<div class="notice warn" role="alert" id="cin-warning"><p>{{_('This Italian property has no CIN: letting without one is fined, and guests must see it.')}} <a href="#cin">{{_('Enter the CIN')}}</a></p></div>
% end
<section class="card" aria-labelledby="channels">
<h2 id="channels">{{_('Channel connections')}}</h2>
% if not channels:
<p class="empty">{{_('No calendar feeds connected.')}}</p>
% else:
<table class="list">
  <thead><tr><th scope="col">{{_('Channel')}}</th><th scope="col">{{_('Feed')}}</th><th scope="col">{{_('Sync')}}</th><th scope="col"><span class="visually-hidden">{{_('Actions')}}</span></th></tr></thead>
  <tbody>
  % for c in channels:
  <tr>
    <td data-label="{{_('Channel')}}"><span class="chan c-{{c.provider}}">{{fmt.channel(c.provider)}}</span></td>
    <td data-label="{{_('Feed')}}" class="mono wrap">{{mask(c.ical_url)}}</td>
    <td data-label="{{_('Sync')}}"><span class="badge s-{{c.status}}">{{fmt.status(c.status)}}</span>
      % if c.last_sync_success:
      <span class="small muted">{{_('last success')}} {{fmt.datetime(c.last_sync_success, prop.timezone)}}</span>
      % end
      % if c.last_sync_attempt and c.last_sync_attempt != c.last_sync_success:
      <span class="small muted">{{_('last attempt')}} {{fmt.datetime(c.last_sync_attempt, prop.timezone)}}</span>
      % end
      % if c.last_error:
      % from rentalcomply.dashboard import problems
      <span class="small error-text">{{_(problems.feed(c.last_error))}}</span>
      % end
    </td>
    <td class="actions-cell">
      % if c.status == 'error':
      <form method="post" action="/dashboard/properties/{{prop.id}}/channels/{{c.id}}/accept-removals" class="inline">
        <input type="hidden" name="csrf" value="{{page.csrf}}">
        <button type="submit" class="small" title="{{_('Only when the channel really cancelled the stays missing from its feed.')}}">{{_('Accept the removals')}}</button>
      </form>
      % end
      <form method="post" action="/dashboard/properties/{{prop.id}}/channels/{{c.id}}/delete" class="inline">
        <input type="hidden" name="csrf" value="{{page.csrf}}">
        <button type="submit" class="danger small" aria-label="{{_('Delete the {channel} connection', channel=fmt.channel(c.provider))}}">{{_('Delete')}}</button>
      </form>
    </td>
  </tr>
  % end
  </tbody>
</table>
% end
% if channels:
<form method="post" action="/dashboard/sync" class="inline">
  <input type="hidden" name="csrf" value="{{page.csrf}}">
  <input type="hidden" name="next" value="/dashboard/properties/{{prop.id}}">
  <button type="submit">{{_('Sync every feed now')}}</button>
</form>
% end
<h3>{{_('Connect a calendar feed')}}</h3>
<form method="post" action="/dashboard/properties/{{prop.id}}/channels" class="stack">
  <input type="hidden" name="csrf" value="{{page.csrf}}">
  <div class="grid">
  <div class="field"><label for="provider">{{_('Channel')}}</label>
  <select id="provider" name="provider">
    % for p in providers:
    <option value="{{p}}"{{!' selected' if p == channel_values.get('provider') else ''}}>{{fmt.channel(p)}}</option>
    % end
  </select>
  % if 'provider' in channel_errors:
  <p class="field-error">{{_(channel_errors['provider'])}}</p>
  % end
  </div>
  <div class="field wide"><label for="ical_url">{{_('iCal export address of the channel')}}</label>
  <input id="ical_url" name="ical_url" type="url" required value="{{channel_values.get('ical_url', '')}}"{{!' aria-invalid="true" aria-describedby="ical_url-error"' if 'ical_url' in channel_errors else ''}}>
  % if 'ical_url' in channel_errors:
  <p class="field-error" id="ical_url-error">{{_(channel_errors['ical_url'])}}</p>
  % end
  </div>
  </div>
  <div class="actions"><button type="submit">{{_('Connect')}}</button></div>
</form>
</section>
<section class="card" aria-labelledby="export">
  <h2 id="export">{{_('This property’s calendar, for the channels')}}</h2>
  <p class="muted">{{_('Paste this address into each channel’s calendar import, so that nights sold elsewhere close there too.')}}</p>
  <div class="copyrow">
    <label for="export-url" class="visually-hidden">{{_('Calendar export address')}}</label>
    <input id="export-url" class="mono" readonly value="{{export_url}}">
    <button type="button" class="copy" data-copy="export-url" data-copied="{{_('Copied')}}" hidden>{{_('Copy')}}</button>
  </div>
  <form method="post" action="/dashboard/properties/{{prop.id}}/ical-token" class="inline">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <button type="submit" class="danger">{{_('Give it a new address')}}</button>
  </form>
  <p class="hint">{{_('The old address stops working at once: paste the new one into every channel.')}}</p>
</section>
% include('_property_closed_days.tpl')
% include('_property_listing_aliases.tpl')
% include('_property_checkin_link.tpl', link=checkin_link)
% include('_property_access.tpl')
% include('_property_police.tpl')
% include('_property_obligations.tpl')
<section class="card" aria-labelledby="details">
<h2 id="details">{{_('Details')}}</h2>
<form method="post" action="/dashboard/properties/{{prop.id}}" class="stack" id="property-form" data-property-form="{{form_data}}">
  % include('_property_fields.tpl')
  <div class="actions"><button type="submit" class="primary">{{_('Save changes')}}</button></div>
</form>
</section>
<script src="/static/js/property-form.js" defer></script>
