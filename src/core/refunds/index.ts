export { paiseOfRupees } from '../money';
export { recentSameRefund, REPEAT_WINDOW_MINUTES, type EarlierRefund } from './repeated-refund';
export { requestRefund } from './request-refund';
export type * from './types';
