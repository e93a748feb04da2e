export { countNotices, listNotices, retryNotice, type NoticeRow } from './list';
export { messageOf } from './message';
export { noticeBuyer, noticePurchase, noticeStatement, noticeJob, recordNotice } from './record';
export { NOTICE_JOB, ORDER_PAID_NOW } from './sql';
export type { NoticeBuyer, NoticeKind, NoticePurchase, OfferRule, SellerNotice } from './types';
