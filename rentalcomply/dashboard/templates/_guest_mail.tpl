<section class="card" aria-labelledby="guest-mail">
  <h2 id="guest-mail">{{_('E-mails to the guest')}}</h2>
  % from rentalcomply.dashboard import problems
  % problem = guest_mail['problem']
  % if problem:
  <div class="notice error wrap" role="alert" id="invitation-problem">
    <p><strong>{{_('The check-in e-mail did not reach the guest.')}}</strong> {{_(problems.mail(problem['reason']))}}{{(' (' + fmt.iso_datetime(problem['at'], booking.property.timezone) + ')') if problem['at'] else ''}}</p>
    <p>{{_(advice[problem['fix']])}}</p>
    % if problem['fix'] == 'mail':
    <p><a href="/dashboard/settings/email">{{_('Set up e-mail')}}</a></p>
    % else:
    <p><a href="/dashboard/bookings/{{booking.id}}/edit">{{_('Correct the e-mail address')}}</a></p>
    % end
  </div>
  % end
  <dl class="facts">
    <dt>{{_('Invitation')}}</dt><dd>{{fmt.datetime(guest_mail['invited_at']) if guest_mail['invited_at'] else (_('none: the booking has no e-mail address; share the check-in link above') if not booking.guest_email else _('not delivered yet'))}}</dd>
    <dt>{{_('Reminders')}}</dt>
    <dd>
    % if guest_mail['stops'] == 'cancelled':
      {{_('none: the booking is cancelled')}}
    % elif guest_mail['stops'] == 'done':
      {{_('none: the check-in is over')}}
    % elif guest_mail['stops'] == 'no_email':
      {{_('none: the booking has no e-mail address')}}
    % elif guest_mail['schedule']:
      {{_('{days} days before arrival (0: the morning of arrival), at most one e-mail a day', days=', '.join(str(d) for d in guest_mail['schedule']))}}
    % else:
      {{_('off for this account')}}
    % end
    </dd>
    % for sent in guest_mail['reminders']:
    <dt>{{_('Reminder sent')}}</dt><dd>{{fmt.datetime(sent)}}</dd>
    % end
  </dl>
</section>
