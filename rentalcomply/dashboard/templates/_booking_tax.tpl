% # The booking page's tourist tax (pages/taxes.py marks it collected). Absent without rules.
% from rentalcomply.taxes.service import COLLECTION_METHODS, tax_views
% tax = tax_views([booking.id]).get(booking.id)
% if tax:
<section class="card" id="tourist-tax" aria-labelledby="tourist-tax-title">
  <h2 id="tourist-tax-title">{{_('Tourist tax')}}</h2>
  <p><strong class="tax-amount">{{fmt.money(round((tax['amount'] or 0) * 100)) if tax['amount'] is not None else _('not known yet')}}</strong>
    <span class="badge s-{{'ready' if tax['status'] == 'collected' else 'at_risk' if tax['status'] == 'due' else 'held' if tax['status'] == 'unknown' else 'pending'}}">{{_('tax_status:' + tax['status'])}}</span></p>
  % if tax['platform_amount']:
  <p class="hint">{{_('The channel collects {amount} itself.', amount=fmt.money(round(tax['platform_amount'] * 100)))}}</p>
  % end
  % if tax['lines']:
  <ul class="tax-lines">
    % for line in tax['lines']:
    <li>{{_('{persons} × {nights} × {rate}', persons=fmt.count('guest', line['persons']), nights=fmt.count('night', line['nights']), rate=fmt.money(round(line['rate'] * 100)))}}{{' × %d%%' % line['percent'] if line['percent'] != 100 else ''}} = {{fmt.money(round(line['amount'] * 100))}}</li>
    % end
  </ul>
  % end
  % for exemption in tax['exemptions']:
  <p class="hint">{{_('Guest {n}: exempt by age ({age})', n=exemption['guest'], age=exemption.get('age')) if exemption['reason'] == 'age' else _('Guest {n}: exempt ({reason})', n=exemption['guest'], reason=exemption['reason'])}}</p>
  % end
  % for note in tax['notes']:
  <p class="hint">{{_(note)}}</p>
  % end
  % if tax['collected']:
  <p>{{_('Collected {when} ({method}).', when=fmt.iso_datetime(tax['collected']['at']), method=_('tax_method:' + tax['collected']['method']))}}</p>
  % elif tax['status'] == 'due':
  <form method="post" action="/dashboard/bookings/{{booking.id}}/tourist-tax/collected" class="buttons">
    <input type="hidden" name="csrf" value="{{page.csrf}}">
    <span class="muted">{{_('Mark collected:')}}</span>
    % for method in COLLECTION_METHODS:
    <button type="submit" name="method" value="{{method}}"{{!' class="primary"' if method == 'cash' else ''}}>{{_('tax_method:' + method)}}</button>
    % end
  </form>
  % end
</section>
% end
