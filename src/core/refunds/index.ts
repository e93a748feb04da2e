export { paiseOfRupees } from '../money';
export { requestRefund } from './request-refund';
export type * from './types';
