// The deployer's glue: a customer desk (客户管理台) on Refine with Ant Design 5, in Simplified Chinese — antd's
// zh_CN locale through ConfigProvider (pickers, Popconfirm's 确定/取消, empty states), dayjs in zh-cn, Refine's own
// texts through its i18nProvider — over json-server's REST API under /api (Refine's simple-rest provider).
import { Refine } from '@refinedev/core';
import { ThemedLayout, useNotificationProvider, ErrorComponent } from '@refinedev/antd';
import routerProvider, { NavigateToResource } from '@refinedev/react-router';
import dataProvider from '@refinedev/simple-rest';
import { App as AntdApp, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN'; // the ES module: Vite's default import of the CommonJS one is its exports object
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { BrowserRouter, Outlet, Route, Routes } from 'react-router';
import '@refinedev/antd/dist/reset.css';
import { i18nProvider } from './i18n';
import { CustomerCreate, CustomerEdit, CustomerList } from './customers';
import { OrderList } from './orders';

dayjs.locale('zh-cn');

const api = dataProvider(`${window.location.origin}/api`);

export const App = () => (
  <BrowserRouter>
    <ConfigProvider locale={zhCN}>
      <AntdApp>
        <Refine
          dataProvider={api}
          routerProvider={routerProvider}
          notificationProvider={useNotificationProvider}
          i18nProvider={i18nProvider}
          resources={[
            { name: 'customers', list: '/customers', create: '/customers/create', edit: '/customers/edit/:id',
              meta: { label: '客户' } },
            { name: 'orders', list: '/orders', meta: { label: '订单' } },
          ]}
          options={{ disableTelemetry: true, warnWhenUnsavedChanges: false, syncWithLocation: false,
                     title: { text: '客户管理台' } }}
        >
          <Routes>
            <Route element={<ThemedLayout><Outlet /></ThemedLayout>}>
              <Route index element={<NavigateToResource resource="customers" />} />
              <Route path="/customers">
                <Route index element={<CustomerList />} />
                <Route path="create" element={<CustomerCreate />} />
                <Route path="edit/:id" element={<CustomerEdit />} />
              </Route>
              <Route path="/orders" element={<OrderList />} />
              <Route path="*" element={<ErrorComponent />} />
            </Route>
          </Routes>
        </Refine>
      </AntdApp>
    </ConfigProvider>
  </BrowserRouter>
);
