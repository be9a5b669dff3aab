% for flag in document_flags:
  % if flag.problem == 'expired':
<p class="notice warn document-flag">{{_('Guest {n}: the scanned document expired on {date}.', n=flag.guest_index + 1, date=fmt.date(flag.expiry_date))}}</p>
  % else:
<p class="notice warn document-flag">{{_('Guest {n}: the scanned document expires on {date}, before departure.', n=flag.guest_index + 1, date=fmt.date(flag.expiry_date))}}</p>
  % end
% end
