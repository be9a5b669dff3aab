% rebase('layout.tpl')
<div class="head"><h1>{{_('Today')}}</h1><p class="muted">{{fmt.date(fmt.today())}}</p></div>
% from rentalcomply.dashboard import problems
% attention = day.needs_a_person
% if mail_warning:
<p class="notice error" role="alert" id="mail-warning">
  % if mail_warning['kind'] == 'failing':
  {{_('E-mail cannot be sent since {when}. {advice}', when=fmt.datetime(mail_warning['at']), advice=_(problems.mail(mail_warning['reason'])))}}
  % else:
  {{_('E-mail is not set up: guests get no check-in link or reminder by e-mail, and nobody gets password links.')}}
  % end
  <a href="/dashboard/settings/email">{{_('Set up e-mail')}}</a>
</p>
% end
<section class="card attention" aria-labelledby="needs">
  <h2 id="needs">{{_('Needs a person')}} <span class="count{{' zero' if not attention else ''}}">{{attention}}</span></h2>
  % if not attention:
  <p class="empty">{{_('Nothing needs you right now.')}}</p>
  % end
  % if day.unfiled:
  % from rentalcomply.dashboard.police_words import UNFILED_HEADING, unfiled_actions, unfiled_sentence, unfiled_todo
  <h3>{{_(UNFILED_HEADING)}}</h3>
  <ul class="issues" id="unfiled">
    % for item in day.unfiled:
    % b = item.booking
    % shown = day.statuses.get(b.id, 'OVERDUE' if item.passed else 'AT_RISK')
    <li><a href="/dashboard/bookings/{{b.id}}">{{b.guest_name}}</a> · {{day.properties.get(b.property_id, '')}} <span class="badge s-{{shown.lower()}}">{{fmt.status(shown)}}</span>
      <p class="said">{{unfiled_sentence(_, fmt, item)}}</p>
      <p class="hint">{{unfiled_todo(_, item)}}</p>
      <p class="todo">
        % for n, (words, url) in enumerate(unfiled_actions(item, '/dashboard/bookings/' + b.id)):
        {{' · ' if n else ''}}<a href="{{url}}">{{_(words)}}</a>
        % end
      </p></li>
    % end
  </ul>
  % end
  % if day.invitations_failed:
  <h3>{{_('Check-in e-mails that did not reach the guest')}}</h3>
  <ul class="issues" id="invitations-failed">
    % for b, problem in day.invitations_failed:
    <li><a href="/dashboard/bookings/{{b.id}}">{{b.guest_name}}</a> · {{day.properties.get(b.property_id, '')}} · {{_('arrives')}} {{fmt.date(b.arrival_date)}} <span class="badge s-failed">{{_('not delivered')}}</span><br><span class="hint">{{_(advice[problem['fix']])}}</span></li>
    % end
  </ul>
  % end
  % if day.access_failed:
  <h3>{{_('Access instructions that did not reach the guest')}}</h3>
  <ul class="issues" id="access-failed">
    % for b, problem in day.access_failed:
    <li><a href="/dashboard/bookings/{{b.id}}">{{b.guest_name}}</a> · {{day.properties.get(b.property_id, '')}} · {{_('arrives')}} {{fmt.date(b.arrival_date)}} <span class="badge s-failed">{{_('address refused') if problem['problem'] == 'address' else _('mail server failing')}}</span></li>
    % end
  </ul>
  % end
  % include('_today_tax.tpl')
  % if day.checkins_due:
  <h3>{{_('Check-ins not done, arrival within 48 hours')}}</h3>
  <ul class="issues">
    % for b in day.checkins_due:
    <li><a href="/dashboard/bookings/{{b.id}}">{{b.guest_name}}</a> · {{day.properties.get(b.property_id, '')}} · {{_('arrives')}} {{fmt.date(b.arrival_date)}} <span class="badge s-{{b.checkin_status.lower()}}">{{fmt.status(b.checkin_status)}}</span></li>
    % end
  </ul>
  % end
  % if day.documents_flagged:
  <h3>{{_('Documents expired or expiring before departure')}}</h3>
  <ul class="issues" id="documents-flagged">
    % for b, flag in day.documents_flagged:
    <li><a href="/dashboard/bookings/{{b.id}}">{{b.guest_name}}</a> · {{day.properties.get(b.property_id, '')}} · {{_('arrives')}} {{fmt.date(b.arrival_date)}}<br><span class="hint">{{document_problem(_, fmt, flag)}}</span></li>
    % end
  </ul>
  % end
  % if day.police_setups:
  <h3>{{_('Police filing on, set-up not complete')}}</h3>
  <ul class="issues" id="police-setups">
    % for prop, lacking in day.police_setups:
    <li><a href="/dashboard/properties/{{prop.id}}#police-setup">{{prop.name}}</a> <span class="badge s-held">{{_('Nothing can be sent')}}</span> · {{_('missing: {fields}', fields=', '.join(_(f.label) for f in lacking))}}</li>
    % end
  </ul>
  % end
  % if day.no_registration:
  <h3>{{_('Properties whose guests are not being filed')}}</h3>
  <ul class="issues" id="no-registration">
    % for prop in day.no_registration:
    <li><a href="/dashboard/properties/{{prop.id}}">{{prop.name}}</a> <span class="badge s-failed">{{_('No police registration chosen')}}</span>
      <p class="hint">{{_('Its guests are not being filed with the police: choose its police connector.')}}</p></li>
    % end
  </ul>
  % end
  % if day.cin_missing:
  <h3>{{_('Italian properties without their CIN')}}</h3>
  <ul class="issues" id="cin-missing">
    % for prop in day.cin_missing:
    <li><a href="/dashboard/properties/{{prop.id}}">{{prop.name}}</a>
      <p class="hint">{{_(cin_todo)}}</p>
      <p class="todo"><a href="/dashboard/properties/{{prop.id}}#cin">{{_('Enter the CIN')}}</a></p></li>
    % end
  </ul>
  % end
  % if day.region_missing:
  <h3>{{_('Properties whose region is unknown')}}</h3>
  <ul class="issues" id="region-missing">
    % for prop in day.region_missing:
    <li><a href="/dashboard/properties/{{prop.id}}">{{prop.name}}</a>
      <p class="hint">{{_(region_todo)}}</p>
      <p class="todo"><a href="/dashboard/properties/{{prop.id}}#region">{{_('Choose the region')}}</a></p></li>
    % end
  </ul>
  % end
  % if day.capacity_missing:
  <h3>{{_('Italian properties without rooms and beds')}}</h3>
  <ul class="issues" id="capacity-missing">
    % for prop in day.capacity_missing:
    <li><a href="/dashboard/properties/{{prop.id}}">{{prop.name}}</a>
      <p class="hint">{{_(capacity_todo)}}</p>
      <p class="todo"><a href="/dashboard/properties/{{prop.id}}#rooms">{{_('Enter rooms and beds')}}</a></p></li>
    % end
  </ul>
  % end
  % if day.period_filings:
  <h3>{{_('Statistics and tax returns to see to')}}</h3>
  <ul class="issues" id="period-filings">
    % from rentalcomply.dashboard.police_words import period_filing_sentence
    % for f in day.period_filings:
    <li><a href="/dashboard/properties/{{f.property.id}}#obligation-{{f.authority}}">{{f.property.name}}</a> · {{f.period}} <span class="badge s-{{'held' if f.status in ('held', 'ready') else 'failed' if f.status in ('failed', 'rejected') else 'pending'}}">{{_(f.status)}}</span>
      <p class="hint">{{period_filing_sentence(_, fmt, f)}}</p></li>
    % end
  </ul>
  % end
  % if day.wrong_authority:
  <h3>{{_('Properties filing with the wrong police authority')}}</h3>
  <ul class="issues" id="wrong-authority">
    % for prop, owed in day.wrong_authority:
    <li><a href="/dashboard/properties/{{prop.id}}">{{prop.name}}</a> · {{prop.region}} · {{owed.title}}
      <p class="hint">{{_(wrong_authority_todo)}}</p>
      <p class="todo"><a href="/dashboard/properties/{{prop.id}}#wrong-authority">{{_('Move to {authority}', authority=owed.title)}}</a></p></li>
    % end
  </ul>
  % end
  % if day.licence_missing:
  <h3>{{_('Spanish properties without their licence number')}}</h3>
  <ul class="issues" id="licence-missing">
    % for prop in day.licence_missing:
    <li><a href="/dashboard/properties/{{prop.id}}">{{prop.name}}</a>
      <p class="hint">{{_(licence_todo)}}</p>
      <p class="todo"><a href="/dashboard/properties/{{prop.id}}#licence_number">{{_('Enter the licence number')}}</a></p></li>
    % end
  </ul>
  % end
  % if day.filings:
  <h3>{{_('Police filings rejected, failed or at risk')}}</h3>
  <ul class="issues" id="filings">
    % from rentalcomply.dashboard.police_words import booking_reason, held_sentences
    % for b in day.filings:
    % reason = booking_reason(_, b)
    % shown = day.statuses.get(b.id, b.report_status)
    % held = held_sentences(_, b, b.report_error) if shown == 'HELD' else []
    % if held:
    <li><a href="/dashboard/bookings/{{b.id}}">{{b.guest_name}}</a> · {{day.properties.get(b.property_id, '')}} <span class="badge s-{{shown.lower()}}">{{fmt.status(shown)}}</span>
      <p class="said">{{' '.join(held[:-1])}}</p>
      <p class="hint">{{held[-1]}}</p>
      <p class="todo"><a href="/dashboard/properties/{{b.property_id}}#police-setup">{{_('Open the police set-up')}}</a></p></li>
    % else:
    <li><a href="/dashboard/bookings/{{b.id}}">{{b.guest_name}}</a> · {{day.properties.get(b.property_id, '')}} <span class="badge s-{{shown.lower()}}">{{fmt.status(shown)}}</span>{{' · ' + reason if reason else ''}}</li>
    % end
    % end
  </ul>
  % end
  % if day.reports_due:
  <h3>{{_('Tax reports due within 5 days or overdue')}}</h3>
  <ul class="issues">
    % for r, due, late in day.reports_due:
    <li><a href="/dashboard/reports/{{r.code}}">{{fmt.period({'year': r.year, 'month': r.month})}}</a> · {{_('due {date}', date=fmt.date(due))}} <span class="badge s-{{'failed' if late else 'at_risk'}}">{{_('overdue') if late else fmt.status(r.status)}}</span></li>
    % end
  </ul>
  % end
  % if day.connections_in_error:
  <h3>{{_('Channel connections in error')}}</h3>
  <ul class="issues">
    % for c in day.connections_in_error:
    <li><a href="/dashboard/properties/{{c.property_id}}">{{day.properties.get(c.property_id, '')}}</a> · {{fmt.channel(c.provider)}}{{' · ' + _(problems.feed(c.last_error)) if c.last_error else ''}}</li>
    % end
  </ul>
  % end
  % if day.failing_webhooks:
  <h3>{{_('Failing webhook endpoints')}}</h3>
  <ul class="issues">
    % for w in day.failing_webhooks:
    <li><a href="/dashboard/settings/webhooks/{{w.id}}">{{w.url}}</a> <span class="badge s-{{'failed' if w.status == 'disabled' else 'at_risk'}}">{{_('disabled') if w.status == 'disabled' else _('failing since {when}', when=fmt.datetime(w.failing_since))}}</span></li>
    % end
  </ul>
  % end
</section>
<section class="card" aria-labelledby="arrivals">
  <h2 id="arrivals">{{_('Arrivals, next 7 days')}}</h2>
  % include('_stays.tpl', rows=day.arrivals, date_field='arrival_date', date_label='Arrival', names=day.properties, police_statuses=day.statuses, empty=_('No arrivals in the next 7 days.'))
</section>
<section class="card" aria-labelledby="departures">
  <h2 id="departures">{{_('Departures, next 7 days')}}</h2>
  % include('_stays.tpl', rows=day.departures, date_field='departure_date', date_label='Departure', names=day.properties, police_statuses=day.statuses, empty=_('No departures in the next 7 days.'))
</section>
