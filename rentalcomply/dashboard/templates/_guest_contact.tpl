%# The e-mail and phone a guest typed on the check-in page, under their name (pages/bookings.py).
% if g.get('mailto') or g.get('tel'):
<span class="guest-contact small">
  % if g.get('mailto'):
  <a href="{{g['mailto']}}">{{g['email']}}</a>
  % end
  % if g.get('mailto') and g.get('tel'):
  ·
  % end
  % if g.get('tel'):
  <a href="{{g['tel']}}">{{g['phone']}}</a>
  % end
</span>
% end
