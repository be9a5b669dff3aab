% # A property's access instructions, one text per guest language (pages/access.py).
% a = access
% def described(key):
%   return 'access-%s-hint' % key + (' access-%s-error' % key if key in a['errors'] else '')
% end
<section class="card" aria-labelledby="access">
  <h2 id="access">{{_('Access instructions')}}</h2>
  <p class="muted">{{_('Door code, Wi-Fi, how to get in. A guest who has completed check-in sees them on their check-in page, and gets them by e-mail once, from the hours below before arrival. They are kept encrypted.')}} {{_('A guest reads the text of their language, else the text in {language} (the property’s language), else any there is.', language=a['home'][1])}}</p>
  <p id="access-state"><span class="badge {{'s-ok' if a['set'] else 's-pending'}}">{{_('Set') if a['set'] else _('Not set')}}</span>
  % if a['set']:
  {{_('In: {languages}', languages=', '.join(name for code, name in a['languages']))}}
  % end
  </p>
  % if a['set'] and not a['shown']:
  %   if a['owner']:
  <form method="post" action="/dashboard/properties/{{prop.id}}/access/read#access" class="inline">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <button type="submit" id="access-read">{{_('Read them')}}</button>
  </form>
  <p class="hint">{{_('Each reading is written in the activity log.')}}</p>
  %   else:
  <p class="hint">{{_('Only an owner of the account can read them again. You can replace them.')}}</p>
  %   end
  % end
  <form method="post" action="/dashboard/properties/{{prop.id}}/access#access" class="stack">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    % if a['shown']:
    <input type="hidden" name="shown" value="yes">
    % end
    % for code, name in a['languages']:
    <div class="field wide"><label for="access-{{code}}">{{name}}</label>
    <textarea id="access-{{code}}" name="access_{{code}}" lang="{{code}}" rows="4" maxlength="2000" autocomplete="off" aria-describedby="{{described(code)}}"{{!' aria-invalid="true"' if code in a['errors'] else ''}}>{{a['texts'].get(code, '')}}</textarea>
    <p class="hint" id="access-{{code}}-hint">{{_('Up to 2,000 characters. Empty the box to remove this language.') if a['shown'] else _('Set. Leave empty to keep it.')}}</p>
    % if code in a['errors']:
    <p class="field-error" id="access-{{code}}-error">{{_(a['errors'][code])}}</p>
    % end
    % if not a['shown']:
    <label class="check"><input type="checkbox" name="remove_{{code}}" value="yes"> {{_('Remove the text in {language}', language=name)}}</label>
    % end
    </div>
    % end
    % if a['free']:
    <div class="field"><label for="access-language">{{_('Add a language') if a['set'] else _('Language')}}</label>
    <select id="access-language" name="new_language">
      % for code, name in a['free']:
      <option value="{{code}}"{{!' selected' if code == a['new_language'] else ''}}>{{name}}</option>
      % end
    </select></div>
    <div class="field wide"><label for="access-new">{{_('Text in the language chosen') if a['set'] else _('Access instructions')}}</label>
    <textarea id="access-new" name="access_new" rows="4" maxlength="2000" autocomplete="off" aria-describedby="{{described('new')}}"{{!' aria-invalid="true"' if 'new' in a['errors'] else ''}}>{{a['new_text']}}</textarea>
    <p class="hint" id="access-new-hint">{{_('Up to 2,000 characters.')}}</p>
    % if 'new' in a['errors']:
    <p class="field-error" id="access-new-error">{{_(a['errors']['new'])}}</p>
    % end
    </div>
    % end
    <div class="field"><label for="hours_before">{{_('Shown from, hours before arrival')}}</label>
    <input id="hours_before" name="hours_before" type="number" min="0" max="168" step="1" required value="{{a['hours']}}" aria-describedby="hours_before-hint{{' hours_before-error' if 'hours_before' in a['errors'] else ''}}"{{!' aria-invalid="true"' if 'hours_before' in a['errors'] else ''}}>
    <p class="hint" id="hours_before-hint">{{_('0 to 168; arrival is the arrival date at the check-in hour, in the property’s time zone.')}}</p>
    % if 'hours_before' in a['errors']:
    <p class="field-error" id="hours_before-error">{{_(a['errors']['hours_before'])}}</p>
    % end
    </div>
    % if a['set']:
    <div class="field"><label><input type="checkbox" name="remove" value="yes"> {{_('Remove the access instructions')}}</label></div>
    % end
    <div class="actions"><button type="submit" class="primary">{{_('Save access instructions')}}</button></div>
  </form>
</section>
