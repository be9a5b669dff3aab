% for flag in document_flags:
<p class="notice warn document-flag">{{document_problem(_, fmt, flag)}}</p>
% end
