<section class="card" aria-labelledby="listing-aliases" id="listing-aliases-section">
  <h2 id="listing-aliases">{{_('Names in the channels’ reservation files')}}</h2>
  <p class="muted">{{_('An imported reservations file names each row’s listing: Airbnb by the listing’s title, Booking.com by the property’s name. Rows whose listing has one of these names come to this property.')}}</p>
  % if listing_aliases:
  <ul class="alias-list" id="listing-alias-list">
    % for alias in listing_aliases:
    <li class="alias-row">
      <span><span class="badge s-pending">{{alias_channels.get(alias.channel, alias.channel)}}</span> {{alias.title}}</span>
      <form method="post" action="/dashboard/properties/{{prop.id}}/listing-aliases/{{alias.id}}/delete" class="inline">
        <input type="hidden" name="csrf" value="{{page.csrf}}">
        <button type="submit" class="small quiet" aria-label="{{_('Remove “{title}”', title=alias.title)}}">{{_('Remove')}}</button>
      </form>
    </li>
    % end
  </ul>
  % else:
  <p id="listing-alias-list">{{_('None yet: an import asks for a listing it does not know, and remembers the answer here.')}}</p>
  % end
  <form method="post" action="/dashboard/properties/{{prop.id}}/listing-aliases" class="stack">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <div class="grid">
    <div class="field"><label for="alias-channel">{{_('Channel')}}</label>
    <select id="alias-channel" name="channel">
      % for value, text in alias_channels.items():
      <option value="{{value}}"{{!' selected' if alias_values.get('channel') == value else ''}}>{{text}}</option>
      % end
    </select></div>
    <div class="field wide"><label for="alias-title">{{_('Name in the file')}}</label>
    <input id="alias-title" name="title" maxlength="300" required value="{{alias_values.get('title', '')}}"{{!' aria-invalid="true" aria-describedby="alias-title-error"' if 'title' in alias_errors else ''}}>
    % if 'title' in alias_errors:
    <p class="field-error" id="alias-title-error">{{_(alias_errors['title'])}}</p>
    % end
    </div>
    </div>
    <div class="actions"><button type="submit">{{_('Add the name')}}</button></div>
  </form>
</section>
