// @xoss/api-contract: the API's error codes, their statuses and the refresh signal.
import { ErrorCode, errorStatus, isTokenExpiry, ownerOfPath } from '@xoss/api-contract';
import { pathFor } from '@xoss/api-contract/routes';

const status: number = errorStatus[ErrorCode.WrongCredentials]; // 401
const expired = isTokenExpiry(401, { code: 10001, msg: 'token_not_valid', detail: 'expired' });
console.log(status, expired, ownerOfPath('/dashboard/workouts/list'));
console.log(pathFor('health'));
