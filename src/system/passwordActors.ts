// Password flows run in the generic resourceForm machine with their endpoint as the save actor.
import { fromPromise } from 'xstate';
import { createResourceFormMachine, type SaveInput, type Saved } from '../../machines/resourceForm';
import { changePassword, resetFinish, resetInit } from '../api/endpoints';
import { resetOperatorPassword } from '../api/endpointsScreens';

const saving = (call: (values: any) => Promise<unknown>) =>
  createResourceFormMachine({
    save: fromPromise<Saved, SaveInput>(async ({ input }) => {
      await call(input.values);
      return { id: 1 };
    }),
  });

export const forgotPasswordMachine = saving((v: { username: string }) => resetInit(v));
export const resetPasswordMachine = saving((v: { token: string; newPassword: string }) => resetFinish(v));
/** An administrator sets another operator's password (an account of the clients they administer alone, issue 27). */
export const operatorPasswordMachine = saving((v: { id: string; password: string }) => resetOperatorPassword(Number(v.id), v.password));
export const changePasswordMachine = saving((v: { username: string; oldPassword: string; newPassword: string }) => changePassword(v));
