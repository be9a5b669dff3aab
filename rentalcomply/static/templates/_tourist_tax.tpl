% # The stay's tourist tax (checkin/tourist_tax.py): the amount and why, and a guest's exemption.
<section class="card tourist-tax" id="tourist-tax" aria-labelledby="tourist-tax-title">
  <h2 id="tourist-tax-title">{{t('tax.title')}}</h2>
  <p>{{tax['intro']}}</p>
  <p class="tax-amount tax-{{tax['status']}}">{{tax['headline']}}</p>
  % if tax['lines'] or tax['exemptions'] or tax['notes']:
  <h3>{{t('tax.why')}}</h3>
  <ul class="tax-lines">
    % for line in tax['lines']:
    <li>{{line}}</li>
    % end
    % for exemption in tax['exemptions']:
    <li>{{exemption}}</li>
    % end
  </ul>
    % for note in tax['notes']:
  <p class="hint">{{note}}</p>
    % end
  % end
  % if tax['notice']:
  <p class="tax-notice" role="status">{{tax['notice']}}</p>
  % end
  % if tax['claimable']:
  <form class="tax-claim" method="post" action="/checkin/{{token}}/tourist-tax?lang={{lang}}">
    <h3>{{t('tax.claim_title')}}</h3>
    <p class="hint">{{t('tax.claim_intro')}}</p>
    % for number, name, declared in tax['guests']:
    <div class="field tax-guest">
      <label for="tax-reason-{{number}}">{{name}}</label>
      <select id="tax-reason-{{number}}" name="reason-{{number}}">
        <option value="">{{t('tax.claim_none')}}</option>
        % for code, label in tax['reasons']:
        <option value="{{code}}"{{!' selected' if code == declared else ''}}>{{label}}</option>
        % end
      </select>
    </div>
    % end
    <button type="submit" class="button-secondary">{{t('tax.claim_save')}}</button>
  </form>
  % end
</section>
