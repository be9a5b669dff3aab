%# The e-mail with the access instructions that did not reach the guest (checkin/access.py).
% if get('access_mail'):
<p class="notice error wrap" role="alert" id="access-mail-problem">
  <strong>{{_('The e-mail with the access instructions did not reach the guest ({when}).', when=fmt.datetime(access_mail['at'], booking.property.timezone))}}</strong>
  % if access_mail['problem'] == 'address':
  {{_('The mail server refused the guest’s address, so it is not sent again. Give the guest the door code another way (WhatsApp, SMS, the channel’s messages): the instructions are also on their check-in page.')}}
  % else:
  {{_('The mail server did not take it; it is tried again on its own. Check the e-mail set-up, or give the guest the door code another way: the instructions are also on their check-in page.')}}
  <a href="/dashboard/settings/email">{{_('Set up e-mail')}}</a>
  % end
</p>
% end
