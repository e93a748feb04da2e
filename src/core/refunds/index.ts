export { paiseOfRupees } from './amount';
export { requestRefund } from './request-refund';
export type * from './types';
