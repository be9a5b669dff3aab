<!doctype html>
<html lang="{{lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="color-scheme" content="light">
<title>{{title}}</title>
<link rel="stylesheet" href="{{asset('css/rentalcomply.css')}}">
% # One script (`script`) or several in order (`scripts`): deferred, they run in that order.
% for each_script in get('scripts') or ([script] if get('script') else []):
<script src="{{asset(each_script)}}" defer></script>
% end
</head>
<body class="{{get('body_class', '')}}">
{{!base}}
% if get('footnote'):
<aside class="shell footnote" id="access-note"><p>{{footnote}}</p></aside>
% end
</body>
</html>
