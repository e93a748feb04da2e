export { countNotices, listNotices, retryNotice, type NoticeRow } from './list';
export { messageOf } from './message';
export { claimDueNotice, markNoticeDead, markNoticeRetry, markNoticeSent, type ClaimedNotice } from './queue';
export { noticeBuyer, noticePurchase, noticeStatement, recordNotice, saleOfOrderStatement } from './record';
export type { NoticeBuyer, NoticeKind, NoticePurchase, OfferRule, SellerNotice } from './types';
